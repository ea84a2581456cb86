import { useMutation } from '@tanstack/react-query';
import { startAuth } from '../auth-store';

export interface SignUpInput {
  name: string;
  email: string;
  password: string;
  /** The beta's coupon code (decision 0601); the server checks and redeems it. */
  coupon: string;
}

/**
 * Creates the account. `signedIn` is false while the address still has to be confirmed
 * through the mailed link, which lands on /auth/confirm.
 */
export async function signUp({ name, email, password, coupon }: SignUpInput): Promise<{
  signedIn: boolean;
}> {
  const client = await startAuth();
  const { data, error } = await client.auth.signUp({
    email: email.trim(),
    password,
    options: {
      emailRedirectTo: `${window.location.origin}/auth/confirm`,
      data: {
        ...(name.trim() ? { display_name: name.trim(), full_name: name.trim() } : {}),
        ...(coupon.trim() ? { coupon: coupon.trim() } : {}),
      },
    },
  });
  if (error) throw error;
  return { signedIn: data.session !== null };
}

export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}
