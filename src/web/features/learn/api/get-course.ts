/**
 * A course as its page shows it: the course, the user's enrolment, and — once enrolled — its
 * modules, lessons with the user's status, and published quizzes with the user's results.
 * `null` when the course does not exist or the user may not see it.
 */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { learnKeys } from './learn-keys';
import { serviceError } from './scope';

export type LessonKind = 'markdown' | 'pdf' | 'epub' | 'video';
export type LessonStatus = 'not_started' | 'in_progress' | 'completed';

export interface OutlineLesson {
  id: string;
  moduleId: string;
  title: string;
  kind: LessonKind;
  estimatedMinutes: number;
  status: LessonStatus;
}

export interface OutlineQuiz {
  id: string;
  moduleId: string;
  title: string;
  dueAt: string | null;
  /** The best graded score, or null; `awaiting` when an attempt waits for an instructor. */
  bestScore: number | null;
  awaiting: boolean;
  attempts: number;
  maxAttempts: number;
}

export interface OutlineModule {
  id: string;
  title: string;
  summary: string;
  lessons: OutlineLesson[];
  quizzes: OutlineQuiz[];
}

export interface CourseDetail {
  id: string;
  title: string;
  subject: string;
  description: string;
  enrolment: { status: string; progressPercent: number } | null;
  /** Whether the user may edit the course (teaches it), for a link to the course editor. */
  canEdit: boolean;
  modules: OutlineModule[];
}

export async function getCourse(userId: string, courseId: string): Promise<CourseDetail | null> {
  const client = await getSupabase();
  const [course, enrolment, teaches] = await Promise.all([
    client
      .from('courses')
      .select('id, title, subject, description')
      .eq('id', courseId)
      .maybeSingle(),
    client
      .from('enrollments')
      .select('status, progress_percent')
      .eq('course_id', courseId)
      .eq('user_id', userId)
      .neq('status', 'dropped')
      .maybeSingle(),
    client.rpc('has_role', { uid: userId, role_name: 'instructor', scope: courseId }),
  ]);
  if (course.error) throw serviceError(course.error);
  if (enrolment.error) throw serviceError(enrolment.error);
  if (teaches.error) throw serviceError(teaches.error);
  if (!course.data) return null;
  const base = course.data as {
    id: string;
    title: string;
    subject: string;
    description: string | null;
  };
  const detail: CourseDetail = {
    id: base.id,
    title: base.title,
    subject: base.subject,
    description: base.description ?? '',
    enrolment: enrolment.data
      ? {
          status: (enrolment.data as { status: string }).status,
          progressPercent: (enrolment.data as { progress_percent: number }).progress_percent,
        }
      : null,
    canEdit: teaches.data === true,
    modules: [],
  };
  if (!detail.enrolment) return detail;

  const [modules, lessons, quizzes, progress, attempts] = await Promise.all([
    client.from('modules').select('id, title, summary').eq('course_id', courseId).order('position'),
    client
      .from('lessons')
      .select('id, module_id, title, kind, estimated_minutes')
      .eq('course_id', courseId)
      .order('position'),
    client
      .from('assessments')
      .select('id, module_id, title, due_at, max_attempts')
      .eq('course_id', courseId)
      .eq('published', true)
      .order('created_at'),
    client
      .from('lesson_progress')
      .select('lesson_id, status')
      .eq('course_id', courseId)
      .eq('user_id', userId),
    client
      .from('assessment_attempts')
      .select('assessment_id, status, score')
      .eq('course_id', courseId)
      .eq('user_id', userId),
  ]);
  for (const result of [modules, lessons, quizzes, progress, attempts]) {
    if (result.error) throw serviceError(result.error);
  }
  const statusByLesson = new Map(
    (progress.data as { lesson_id: string; status: LessonStatus }[]).map((p) => [
      p.lesson_id,
      p.status,
    ]),
  );
  const attemptRows = attempts.data as {
    assessment_id: string;
    status: string;
    score: number | string | null;
  }[];
  detail.modules = (modules.data as { id: string; title: string; summary: string }[]).map((m) => ({
    id: m.id,
    title: m.title,
    summary: m.summary,
    lessons: (
      lessons.data as {
        id: string;
        module_id: string;
        title: string;
        kind: LessonKind;
        estimated_minutes: number;
      }[]
    )
      .filter((l) => l.module_id === m.id)
      .map((l) => ({
        id: l.id,
        moduleId: l.module_id,
        title: l.title,
        kind: l.kind,
        estimatedMinutes: l.estimated_minutes,
        status: statusByLesson.get(l.id) ?? 'not_started',
      })),
    quizzes: (
      quizzes.data as {
        id: string;
        module_id: string;
        title: string;
        due_at: string | null;
        max_attempts: number;
      }[]
    )
      .filter((q) => q.module_id === m.id)
      .map((q) => {
        const mine = attemptRows.filter((a) => a.assessment_id === q.id);
        const scores = mine.filter((a) => a.score !== null).map((a) => Number(a.score));
        return {
          id: q.id,
          moduleId: q.module_id,
          title: q.title,
          dueAt: q.due_at,
          bestScore: scores.length > 0 ? Math.max(...scores) : null,
          awaiting: mine.some((a) => a.status === 'awaiting_grading'),
          attempts: mine.length,
          maxAttempts: q.max_attempts,
        };
      }),
  }));
  return detail;
}

export function useCourse(userId: string, courseId: string) {
  return useQuery({
    queryKey: learnKeys.course(userId, courseId),
    queryFn: () => getCourse(userId, courseId),
  });
}
