/**
 * A course as its editor shows it: the details, whether the user may edit it (the same check
 * the database makes, `has_role(…, 'instructor', course)`), and its modules in order with
 * their lessons, and how many bank questions and quizzes each has. `null` when the course
 * does not exist or the user may not read it.
 */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { editorError } from './editor-error';
import { editorKeys } from './editor-keys';
import type { Visibility } from './get-taught-courses';

export type LessonKind = 'markdown' | 'pdf' | 'epub' | 'video';

export interface EditorLesson {
  id: string;
  moduleId: string;
  title: string;
  kind: LessonKind;
  estimatedMinutes: number;
}

export interface EditorModule {
  id: string;
  title: string;
  summary: string;
  lessons: EditorLesson[];
  questionCount: number;
  quizCount: number;
}

export interface CourseOutline {
  id: string;
  title: string;
  subject: string;
  description: string;
  visibility: Visibility;
  published: boolean;
  organizationId: string | null;
  canEdit: boolean;
  modules: EditorModule[];
}

interface CourseRow {
  id: string;
  title: string;
  subject: string;
  description: string | null;
  visibility: Visibility;
  published: boolean;
  organization_id: string | null;
}

export async function getCourseOutline(
  userId: string,
  courseId: string,
): Promise<CourseOutline | null> {
  const client = await getSupabase();
  const [course, role] = await Promise.all([
    client
      .from('courses')
      .select('id, title, subject, description, visibility, published, organization_id')
      .eq('id', courseId)
      .maybeSingle(),
    client.rpc('has_role', { uid: userId, role_name: 'instructor', scope: courseId }),
  ]);
  if (course.error) throw editorError(course.error);
  if (role.error) throw editorError(role.error);
  if (!course.data) return null;
  const row = course.data as CourseRow;
  const outline: CourseOutline = {
    id: row.id,
    title: row.title,
    subject: row.subject,
    description: row.description ?? '',
    visibility: row.visibility,
    published: row.published,
    organizationId: row.organization_id,
    canEdit: role.data === true,
    modules: [],
  };
  if (!outline.canEdit) return outline;

  const [modules, lessons, questions, quizzes] = await Promise.all([
    client.from('modules').select('id, title, summary').eq('course_id', courseId).order('position'),
    client
      .from('lessons')
      .select('id, module_id, title, kind, estimated_minutes')
      .eq('course_id', courseId)
      .order('position'),
    client.from('questions').select('module_id').eq('course_id', courseId),
    client.from('assessments').select('module_id').eq('course_id', courseId),
  ]);
  for (const result of [modules, lessons, questions, quizzes]) {
    if (result.error) throw editorError(result.error);
  }
  const countBy = (rows: { module_id: string }[]) => {
    const counts = new Map<string, number>();
    for (const r of rows) counts.set(r.module_id, (counts.get(r.module_id) ?? 0) + 1);
    return counts;
  };
  const questionCounts = countBy(questions.data as { module_id: string }[]);
  const quizCounts = countBy(quizzes.data as { module_id: string }[]);
  const lessonRows = lessons.data as {
    id: string;
    module_id: string;
    title: string;
    kind: LessonKind;
    estimated_minutes: number;
  }[];
  outline.modules = (modules.data as { id: string; title: string; summary: string }[]).map((m) => ({
    id: m.id,
    title: m.title,
    summary: m.summary,
    questionCount: questionCounts.get(m.id) ?? 0,
    quizCount: quizCounts.get(m.id) ?? 0,
    lessons: lessonRows
      .filter((l) => l.module_id === m.id)
      .map((l) => ({
        id: l.id,
        moduleId: l.module_id,
        title: l.title,
        kind: l.kind,
        estimatedMinutes: l.estimated_minutes,
      })),
  }));
  return outline;
}

export function useCourseOutline(userId: string, courseId: string) {
  return useQuery({
    queryKey: editorKeys.outline(userId, courseId),
    queryFn: () => getCourseOutline(userId, courseId),
  });
}
