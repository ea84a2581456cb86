/** The courses the user can see, for the library's course filter. */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { libraryKeys } from './library-keys';

export interface LibraryCourseOption {
  id: string;
  title: string;
}

export async function getLibraryCourses(): Promise<LibraryCourseOption[]> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('courses')
    .select('id, title')
    .order('title')
    .limit(500);
  if (error) throw new Error(error.message);
  return (data ?? []) as LibraryCourseOption[];
}

export function useLibraryCourses(userId: string) {
  return useQuery({ queryKey: libraryKeys.courses(userId), queryFn: getLibraryCourses });
}
