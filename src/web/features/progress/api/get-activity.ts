/** The learner's own activity of the last twelve weeks, read under RLS (their rows only). */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import type { ActivityRows } from '../activity';
import { progressKeys } from './progress-keys';

export const ACTIVITY_WEEKS = 12;

export async function getActivity(userId: string): Promise<ActivityRows> {
  const client = await getSupabase();
  const since = new Date(Date.now() - ACTIVITY_WEEKS * 7 * 86_400_000);
  const sinceDay = since.toISOString().slice(0, 10);
  const [time, lessons, quizzes, reviews] = await Promise.all([
    client
      .from('study_time')
      .select('local_day, seconds, course_id')
      .eq('user_id', userId)
      .gte('local_day', sinceDay)
      .limit(5000),
    client
      .from('lesson_progress')
      .select('completed_at, course_id, lesson:lessons(title)')
      .eq('user_id', userId)
      .eq('status', 'completed')
      .gte('completed_at', since.toISOString())
      .limit(5000),
    client
      .from('assessment_attempts')
      .select('submitted_at, score, course_id, assessment:assessments(title)')
      .eq('user_id', userId)
      .eq('status', 'graded')
      .gte('submitted_at', since.toISOString())
      .order('submitted_at')
      .limit(5000),
    client
      .from('flashcard_reviews')
      .select('reviewed_at, rating, state_before')
      .eq('user_id', userId)
      .gte('reviewed_at', since.toISOString())
      .limit(20000),
  ]);
  for (const result of [time, lessons, quizzes, reviews]) {
    if (result.error) throw new Error(result.error.message);
  }
  type Titled = { title: string } | null;
  const timeRows = time.data as { local_day: string; seconds: number; course_id: string }[];
  const lessonRows = lessons.data as unknown as {
    completed_at: string;
    course_id: string;
    lesson: Titled;
  }[];
  const quizRows = quizzes.data as unknown as {
    submitted_at: string;
    score: number | string;
    course_id: string;
    assessment: Titled;
  }[];
  const courseIds = [...new Set([...timeRows, ...lessonRows, ...quizRows].map((r) => r.course_id))];
  const titles = new Map<string, string>();
  if (courseIds.length > 0) {
    const courses = await client.from('courses').select('id, title').in('id', courseIds);
    if (courses.error) throw new Error(courses.error.message);
    for (const c of courses.data as { id: string; title: string }[]) titles.set(c.id, c.title);
  }
  const title = (id: string) => titles.get(id) ?? 'A course you can no longer open';
  return {
    studyTime: timeRows.map((r) => ({
      day: r.local_day,
      seconds: r.seconds,
      courseTitle: title(r.course_id),
    })),
    lessons: lessonRows.map((r) => ({
      completedAt: r.completed_at,
      courseTitle: title(r.course_id),
      lessonTitle: r.lesson?.title ?? '',
    })),
    quizzes: quizRows.map((r) => ({
      submittedAt: r.submitted_at,
      score: Number(r.score),
      quizTitle: r.assessment?.title ?? '',
      courseTitle: title(r.course_id),
    })),
    reviews: (reviews.data as { reviewed_at: string; rating: number; state_before: number }[]).map(
      (r) => ({ reviewedAt: r.reviewed_at, rating: r.rating, stateBefore: r.state_before }),
    ),
  };
}

export function useActivity(userId: string) {
  return useQuery({ queryKey: progressKeys.activity(userId), queryFn: () => getActivity(userId) });
}
