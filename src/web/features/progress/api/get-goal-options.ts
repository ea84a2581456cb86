/** What a goal can aim at: the learner's courses, their modules and published quizzes. */
import { useQuery } from '@tanstack/react-query';
import { getEnrolledCourses } from '@/lib/enrolled-courses';
import { getSupabase } from '@/lib/supabase';
import { progressKeys } from './progress-keys';

export interface GoalCourse {
  id: string;
  title: string;
  modules: { id: string; title: string }[];
  quizzes: { id: string; title: string }[];
}

export async function getGoalOptions(userId: string): Promise<GoalCourse[]> {
  const client = await getSupabase();
  const courses = await getEnrolledCourses(userId);
  const ids = courses.map((c) => c.id);
  if (ids.length === 0) return [];
  const [modules, quizzes] = await Promise.all([
    client.from('modules').select('id, title, course_id').in('course_id', ids).order('position'),
    client
      .from('assessments')
      .select('id, title, course_id')
      .in('course_id', ids)
      .eq('published', true)
      .order('title'),
  ]);
  if (modules.error) throw new Error(modules.error.message);
  if (quizzes.error) throw new Error(quizzes.error.message);
  type Item = { id: string; title: string; course_id: string };
  const of = (rows: Item[], courseId: string) =>
    rows.filter((r) => r.course_id === courseId).map(({ id, title }) => ({ id, title }));
  return courses
    .map((c) => ({
      id: c.id,
      title: c.title,
      modules: of(modules.data as Item[], c.id),
      quizzes: of(quizzes.data as Item[], c.id),
    }))
    .sort((a, b) => a.title.localeCompare(b.title));
}

export function useGoalOptions(userId: string) {
  return useQuery({
    queryKey: progressKeys.goalOptions(userId),
    queryFn: () => getGoalOptions(userId),
  });
}
