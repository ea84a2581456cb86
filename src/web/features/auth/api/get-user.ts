/** The signed-in user as the auth service has it now (factors, pending email change). */
import { useQuery } from '@tanstack/react-query';
import type { User } from '@supabase/supabase-js';
import { startAuth } from '../auth-store';
import { authKeys } from './auth-keys';

export async function getUser(): Promise<User> {
  const client = await startAuth();
  const { data, error } = await client.auth.getUser();
  if (error) throw error;
  return data.user;
}

/** Starts from the session's copy of the user, then reads the service's current one. */
export function useUser(sessionUser: User) {
  return useQuery({
    queryKey: authKeys.user(sessionUser.id),
    queryFn: getUser,
    placeholderData: sessionUser,
    retry: false,
  });
}
