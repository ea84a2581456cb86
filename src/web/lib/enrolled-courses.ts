/**
 * The courses the signed-in learner is enrolled in (not dropped), newest enrolment first: what
 * notes, decks, goals and the coach let a learner pick. One query and one cache entry for them.
 */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';

export interface EnrolledCourse {
  id: string;
  title: string;
}

export async function getEnrolledCourses(userId: string): Promise<EnrolledCourse[]> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('enrollments')
    .select('course_id, course:courses!inner(title)')
    .eq('user_id', userId)
    .neq('status', 'dropped')
    .order('enrolled_at', { ascending: false })
    .limit(200);
  if (error) throw new Error(error.message);
  return (data as unknown as { course_id: string; course: { title: string } }[]).map((row) => ({
    id: row.course_id,
    title: row.course.title,
  }));
}

const byTitle = (courses: EnrolledCourse[]) =>
  [...courses].sort((a, b) => a.title.localeCompare(b.title));

/** The learner's courses, by enrolment (`order: 'recent'`) or alphabetically (`'title'`). */
export function useEnrolledCourses(userId: string, order: 'recent' | 'title') {
  return useQuery({
    queryKey: ['enrolled-courses', userId],
    queryFn: () => getEnrolledCourses(userId),
    select: order === 'title' ? byTitle : undefined,
  });
}
