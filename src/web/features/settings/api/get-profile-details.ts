/** The user's own profile row: names and picture (RLS lets a user read theirs). */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { settingsKeys } from './settings-keys';

export interface ProfileDetails {
  displayName: string;
  fullName: string;
  avatarUrl: string | null;
}

export async function getProfileDetails(userId: string): Promise<ProfileDetails> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('profiles')
    .select('display_name, full_name, avatar_url')
    .eq('id', userId)
    .maybeSingle<{
      display_name: string | null;
      full_name: string | null;
      avatar_url: string | null;
    }>();
  if (error) throw new Error(error.message);
  return {
    displayName: data?.display_name ?? '',
    fullName: data?.full_name ?? '',
    avatarUrl: data?.avatar_url ?? null,
  };
}

export function useProfileDetails(userId: string) {
  return useQuery({
    queryKey: settingsKeys.profile(userId),
    queryFn: () => getProfileDetails(userId),
  });
}
