/**
 * Starts an email change: the auth service mails a link to the new address (and a notice to
 * the current one); the change takes effect when the link is opened.
 */
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';

export const emailSchema = z.object({
  email: z.string().trim().email('Enter an email address such as name@example.com.'),
});

export async function changeEmail(email: string): Promise<void> {
  const parsed = emailSchema.parse({ email });
  const client = await getSupabase();
  const { error } = await client.auth.updateUser(
    { email: parsed.email },
    { emailRedirectTo: `${window.location.origin}/app/settings` },
  );
  if (error) throw error;
}

export function useChangeEmail() {
  return useMutation({ mutationFn: changeEmail });
}
