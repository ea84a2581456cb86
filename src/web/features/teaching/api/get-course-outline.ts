/**
 * What the teaching forms pick from: a course's title, its modules with their lessons and its
 * quizzes. Row-level security lets whoever teaches the course read all of it; a course the
 * user may not read comes back as null.
 */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { serviceError, teachingKeys } from './teaching-keys';

export interface CourseOutline {
  id: string;
  title: string;
  modules: { id: string; title: string; position: number }[];
  lessons: { id: string; title: string; moduleId: string; position: number }[];
  quizzes: { id: string; title: string; moduleId: string; published: boolean }[];
}

export async function getCourseOutline(courseId: string): Promise<CourseOutline | null> {
  const client = await getSupabase();
  const course = await client.from('courses').select('id, title').eq('id', courseId).maybeSingle();
  if (course.error) throw serviceError(course.error);
  if (!course.data) return null;
  const [modules, lessons, quizzes] = await Promise.all([
    client
      .from('modules')
      .select('id, title, position')
      .eq('course_id', courseId)
      .order('position'),
    client
      .from('lessons')
      .select('id, title, module_id, position')
      .eq('course_id', courseId)
      .order('position'),
    client
      .from('assessments')
      .select('id, title, module_id, published')
      .eq('course_id', courseId)
      .order('title'),
  ]);
  for (const result of [modules, lessons, quizzes])
    if (result.error) throw serviceError(result.error);
  const moduleRows = (modules.data ?? []) as CourseOutline['modules'];
  const order = new Map(moduleRows.map((m) => [m.id, m.position]));
  return {
    id: (course.data as { id: string }).id,
    title: (course.data as { title: string }).title,
    modules: moduleRows,
    lessons: (
      (lessons.data ?? []) as { id: string; title: string; module_id: string; position: number }[]
    )
      .map((l) => ({ id: l.id, title: l.title, moduleId: l.module_id, position: l.position }))
      .sort(
        (a, b) =>
          (order.get(a.moduleId) ?? 0) - (order.get(b.moduleId) ?? 0) || a.position - b.position,
      ),
    quizzes: (
      (quizzes.data ?? []) as { id: string; title: string; module_id: string; published: boolean }[]
    ).map((q) => ({ id: q.id, title: q.title, moduleId: q.module_id, published: q.published })),
  };
}

export function useCourseOutline(userId: string, courseId: string) {
  return useQuery({
    queryKey: [...teachingKeys.course(userId, courseId), 'outline'],
    queryFn: () => getCourseOutline(courseId),
  });
}
