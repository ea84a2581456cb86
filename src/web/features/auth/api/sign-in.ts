import { useMutation } from '@tanstack/react-query';
import { startAuth } from '../auth-store';

export interface SignInInput {
  email: string;
  password: string;
}

/** Signs in with the password; `needsTotp` when a verified authenticator must follow. */
export async function signIn({ email, password }: SignInInput): Promise<{ needsTotp: boolean }> {
  const client = await startAuth();
  const { error } = await client.auth.signInWithPassword({ email: email.trim(), password });
  if (error) throw error;
  const { data: aal } = await client.auth.mfa.getAuthenticatorAssuranceLevel();
  return { needsTotp: !!aal && aal.nextLevel === 'aal2' && aal.currentLevel !== 'aal2' };
}

export function useSignIn() {
  return useMutation({ mutationFn: signIn });
}
