/** The organization's courses and boards, for the report's filters. */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { insightsKeys, serviceError } from './insights-keys';

export interface FilterOption {
  id: string;
  name: string;
}

export interface FilterOptions {
  courses: FilterOption[];
  boards: FilterOption[];
}

export async function getFilterOptions(organizationId: string): Promise<FilterOptions> {
  const client = await getSupabase();
  const [courses, boards] = await Promise.all([
    client
      .from('courses')
      .select('id, title')
      .eq('organization_id', organizationId)
      .order('title')
      .order('id'),
    client
      .from('boards')
      .select('id, name')
      .eq('organization_id', organizationId)
      .order('name')
      .order('id'),
  ]);
  if (courses.error) throw serviceError(courses.error);
  if (boards.error) throw serviceError(boards.error);
  return {
    courses: (courses.data as { id: string; title: string }[]).map((c) => ({
      id: c.id,
      name: c.title,
    })),
    boards: boards.data as FilterOption[],
  };
}

export function useFilterOptions(userId: string, organizationId: string) {
  return useQuery({
    queryKey: insightsKeys.filterOptions(userId, organizationId),
    queryFn: () => getFilterOptions(organizationId),
  });
}
