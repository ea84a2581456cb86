/** Saves the names shown for the user; an empty name is stored as no name. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';
import { profileQueryKey } from '@/lib/profile-keys';
import { settingsKeys } from './settings-keys';

export const profileSchema = z.object({
  displayName: z.string().trim().max(80, 'A display name is limited to 80 characters.'),
  fullName: z.string().trim().max(120, 'A full name is limited to 120 characters.'),
});

export type ProfileNames = z.infer<typeof profileSchema>;

export async function updateProfile({
  userId,
  ...names
}: ProfileNames & { userId: string }): Promise<void> {
  const parsed = profileSchema.parse(names);
  const client = await getSupabase();
  const { error } = await client
    .from('profiles')
    .update({
      display_name: parsed.displayName || null,
      full_name: parsed.fullName || null,
      updated_at: new Date().toISOString(),
    })
    .eq('id', userId);
  if (error) throw new Error(error.message);
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (_data, { userId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: settingsKeys.profile(userId) }),
        // The header shows the name.
        queryClient.invalidateQueries({ queryKey: profileQueryKey(userId) }),
      ]),
  });
}
