/** One page of per-course figures, most enrolments first, searched on the server. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { insightsKeys, serviceError } from './insights-keys';

export const COURSE_PAGE_SIZE = 10;

export interface CourseFigures {
  courseId: string;
  title: string;
  subject: string;
  published: boolean;
  enrollments: number;
  completions: number;
  /** Percent of enrolments completed; null with no enrolment. */
  completionRate: number | null;
  gradedAttempts: number;
  averageScore: number | null;
  /** Learners active in the window; in a board's list, the board's learners only. */
  activeLearners7d: number | null;
}

export interface CourseFiguresPage {
  total: number;
  courses: CourseFigures[];
}

interface CourseRow {
  course_id: string;
  title: string;
  subject: string;
  published: boolean;
  enrollments: number;
  completions: number;
  completion_rate: number | null;
  graded_attempts: number;
  average_score: number | null;
  active_learners_7d: number | null;
}

export async function getCourseInsights(
  organizationId: string,
  boardId: string | null,
  search: string,
  page: number,
): Promise<CourseFiguresPage> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('get_course_insights', {
    organization_id: organizationId,
    board_id: boardId,
    search: search || null,
    page_size: COURSE_PAGE_SIZE,
    page,
  });
  if (error) throw serviceError(error);
  const result = data as { total: number; courses: CourseRow[] };
  return {
    total: result.total,
    courses: result.courses.map((row) => ({
      courseId: row.course_id,
      title: row.title,
      subject: row.subject,
      published: row.published,
      enrollments: row.enrollments,
      completions: row.completions,
      completionRate: row.completion_rate,
      gradedAttempts: row.graded_attempts,
      averageScore: row.average_score,
      activeLearners7d: row.active_learners_7d,
    })),
  };
}

export function useCourseInsights(
  userId: string,
  organizationId: string,
  boardId: string | null,
  search: string,
  page: number,
) {
  return useQuery({
    queryKey: insightsKeys.courses(userId, organizationId, boardId, search, page),
    queryFn: () => getCourseInsights(organizationId, boardId, search, page),
    placeholderData: keepPreviousData,
  });
}
