/**
 * Legal holds (decision 0423) for platform admins: the list with the people's addresses, and
 * placing or releasing a hold with its reason. The database refuses anyone else.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { complianceKeys } from './compliance-keys';

export interface LegalHold {
  id: string;
  user_id: string;
  email: string | null;
  reason: string;
  placed_by_email: string | null;
  placed_at: string;
  released_at: string | null;
  released_by_email: string | null;
  release_reason: string | null;
}

const holdsKey = (userId: string) => [...complianceKeys.all, userId, 'legal-holds'] as const;

export function useLegalHolds(userId: string) {
  return useQuery({
    queryKey: holdsKey(userId),
    queryFn: async () => {
      const client = await getSupabase();
      const { data, error } = await client.rpc('legal_hold_list');
      if (error) throw new Error(error.message);
      return data as LegalHold[];
    },
  });
}

export function useChangeLegalHold(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (
      change:
        | { kind: 'place'; person: string; reason: string }
        | { kind: 'release'; person: string; reason: string },
    ) => {
      const client = await getSupabase();
      const { error } =
        change.kind === 'place'
          ? await client.rpc('place_legal_hold_on', {
              person: change.person,
              reason: change.reason,
            })
          : await client.rpc('release_legal_hold', {
              person: change.person,
              reason: change.reason,
            });
      if (error) throw new Error(error.message);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: holdsKey(userId) }),
  });
}
