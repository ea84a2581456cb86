/** The courses the learner can study with the coach (their enrolments), and a course's topics. */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { coachKeys } from './coach-keys';

export interface CoachCourse {
  id: string;
  title: string;
}

export interface CoachTopic {
  /** The module's slug when it has one, else its id: what the function's `topic` names. */
  value: string;
  title: string;
}

export async function getCoachCourses(userId: string): Promise<CoachCourse[]> {
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

export function useCoachCourses(userId: string) {
  return useQuery({ queryKey: coachKeys.courses(userId), queryFn: () => getCoachCourses(userId) });
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
