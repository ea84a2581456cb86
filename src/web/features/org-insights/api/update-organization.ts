/**
 * Changes to the organization: the struggle threshold, the name and (the owner only) the
 * address. Row-level security and the database's checks decide; a change that touched no row
 * (the caller may not make it) is reported, not shown as saved.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { insightsKeys, serviceError } from './insights-keys';

export interface OrganizationChange {
  userId: string;
  organizationId: string;
  change: { struggle_threshold?: number; name?: string; slug?: string };
}

export async function updateOrganization({
  organizationId,
  change,
}: OrganizationChange): Promise<void> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('organizations')
    .update(change)
    .eq('id', organizationId)
    .select('id');
  if (error) throw serviceError(error);
  if ((data as unknown[]).length === 0) {
    throw new Error('Only an admin of this organization can change its settings.');
  }
}

export function useUpdateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOrganization,
    // A new name shows in the workspace switcher and other features' screens too; renaming
    // is rare, so everything is read again rather than reaching into their keys.
    onSuccess: (_data, { userId, organizationId, change }) =>
      change.name !== undefined
        ? queryClient.invalidateQueries()
        : queryClient.invalidateQueries({
            queryKey: insightsKeys.organization(userId, organizationId),
          }),
  });
}
