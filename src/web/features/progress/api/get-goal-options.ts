/** What a goal can aim at: the learner's courses, their modules and published quizzes. */
import { useQuery } from '@tanstack/react-query';
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
  const enrolled = await client
    .from('enrollments')
    .select('course_id, course:courses!inner(title)')
    .eq('user_id', userId)
    .neq('status', 'dropped')
    .limit(200);
  if (enrolled.error) throw new Error(enrolled.error.message);
  const courses = enrolled.data as unknown as { course_id: string; course: { title: string } }[];
  const ids = courses.map((c) => c.course_id);
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
      id: c.course_id,
      title: c.course.title,
      modules: of(modules.data as Item[], c.course_id),
      quizzes: of(quizzes.data as Item[], c.course_id),
    }))
    .sort((a, b) => a.title.localeCompare(b.title));
}

export function useGoalOptions(userId: string) {
  return useQuery({
    queryKey: progressKeys.goalOptions(userId),
    queryFn: () => getGoalOptions(userId),
  });
}
