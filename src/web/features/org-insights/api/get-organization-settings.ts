/** The organization's own settings: name, address (slug), tier and the struggle threshold. */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { insightsKeys, serviceError } from './insights-keys';

export interface OrganizationSettings {
  id: string;
  name: string;
  slug: string;
  tier: 'free' | 'pro' | 'enterprise';
  struggleThreshold: number;
  updatedAt: string;
}

interface Row {
  id: string;
  name: string;
  slug: string;
  tier: OrganizationSettings['tier'];
  struggle_threshold: number;
  updated_at: string;
}

export async function getOrganizationSettings(
  organizationId: string,
): Promise<OrganizationSettings> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('organizations')
    .select('id, name, slug, tier, struggle_threshold, updated_at')
    .eq('id', organizationId)
    .maybeSingle();
  if (error) throw serviceError(error);
  if (!data) throw new Error('This organization is not available to you.');
  const row = data as Row;
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    tier: row.tier,
    struggleThreshold: row.struggle_threshold,
    updatedAt: row.updated_at,
  };
}

export function useOrganizationSettings(userId: string, organizationId: string) {
  return useQuery({
    queryKey: insightsKeys.settings(userId, organizationId),
    queryFn: () => getOrganizationSettings(organizationId),
  });
}
