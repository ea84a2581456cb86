/**
 * What the signed-in user may see here: the organization's analytics and reports (its owner and
 * organization-wide admins) and the figures per board (the owner). The database decides; these
 * answers only choose what the screen offers.
 */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { insightsKeys, serviceError } from './insights-keys';

export interface InsightsAccess {
  admin: boolean;
  owner: boolean;
}

export async function getInsightsAccess(
  userId: string,
  organizationId: string,
): Promise<InsightsAccess> {
  const client = await getSupabase();
  const ask = async (role: 'org_admin' | 'owner') => {
    const { data, error } = await client.rpc('has_role', {
      uid: userId,
      role_name: role,
      scope: organizationId,
    });
    if (error) throw serviceError(error);
    return data === true;
  };
  const [admin, owner] = await Promise.all([ask('org_admin'), ask('owner')]);
  return { admin, owner };
}

export function useInsightsAccess(userId: string, organizationId: string | null) {
  return useQuery({
    queryKey: insightsKeys.access(userId, organizationId ?? ''),
    queryFn: () => getInsightsAccess(userId, organizationId!),
    enabled: organizationId !== null,
  });
}
