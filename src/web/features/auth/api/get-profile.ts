/** The user's own row of `public.profiles` (row-level security lets a user read only theirs). */
import { useQuery } from '@tanstack/react-query';
import { startAuth } from '../auth-store';
import { authKeys } from './auth-keys';

export interface Profile {
  displayName: string;
  fullName: string;
}

export async function getProfile(userId: string): Promise<Profile> {
  const client = await startAuth();
  const { data, error } = await client
    .from('profiles')
    .select('display_name, full_name')
    .eq('id', userId)
    .maybeSingle();
  if (error) throw new Error(error.message);
  return {
    displayName: (data?.display_name as string | null) ?? '',
    fullName: (data?.full_name as string | null) ?? '',
  };
}

export function useProfile(userId: string) {
  return useQuery({
    queryKey: authKeys.profile(userId),
    queryFn: () => getProfile(userId),
    retry: false,
  });
}
