/** The courses the learner can study with the coach (their enrolments), and a course's topics. */
import { useQuery } from '@tanstack/react-query';
import { useEnrolledCourses } from '@/lib/enrolled-courses';
import { getSupabase } from '@/lib/supabase';
import { coachKeys } from './coach-keys';

export type { EnrolledCourse as CoachCourse } from '@/lib/enrolled-courses';

export interface CoachTopic {
  /** The module's slug when it has one, else its id: what the function's `topic` names. */
  value: string;
  title: string;
}

export function useCoachCourses(userId: string) {
  return useEnrolledCourses(userId, 'recent');
}

export async function getCoachTopics(courseId: string): Promise<CoachTopic[]> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('modules')
    .select('id, slug, title')
    .eq('course_id', courseId)
    .order('position');
  if (error) throw new Error(error.message);
  return (data as { id: string; slug: string | null; title: string }[]).map((m) => ({
    value: m.slug ?? m.id,
    title: m.title,
  }));
}

export function useCoachTopics(userId: string, courseId: string) {
  return useQuery({
    queryKey: coachKeys.topics(userId, courseId),
    queryFn: () => getCoachTopics(courseId),
    enabled: courseId !== '',
  });
}
