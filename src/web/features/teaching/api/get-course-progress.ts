/**
 * A course's progress table from course_progress: one page of the filtered, sorted rows with
 * their total, or every filtered row for the CSV export. The database decides who may ask.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { PROGRESS_PAGE_SIZE, type ProgressStatus, type ProgressView } from '../progress-query';
import { serviceError, teachingKeys } from './teaching-keys';

export interface LearnerProgress {
  userId: string;
  name: string;
  email: string;
  status: ProgressStatus;
  lessonsCompleted: number;
  lessonsTotal: number;
  percent: number;
  timeSpentSeconds: number;
  lastActivity: string | null;
  averageScore: number | null;
  awaitingGrading: number;
}

interface Row {
  user_id: string;
  full_name: string;
  email: string;
  progress_status: ProgressStatus;
  lessons_completed: number;
  lessons_total: number;
  percent: number;
  time_spent_seconds: number | string;
  last_activity: string | null;
  average_score: number | string | null;
  awaiting_grading: number;
  total_count: number;
}

function fromRow(row: Row): LearnerProgress {
  return {
    userId: row.user_id,
    name: row.full_name,
    email: row.email,
    status: row.progress_status,
    lessonsCompleted: row.lessons_completed,
    lessonsTotal: row.lessons_total,
    percent: row.percent,
    timeSpentSeconds: Number(row.time_spent_seconds),
    lastActivity: row.last_activity,
    averageScore: row.average_score === null ? null : Number(row.average_score),
    awaitingGrading: row.awaiting_grading,
  };
}

async function callProgress(
  courseId: string,
  view: ProgressView,
  page: { limit: number; offset: number } | 'all',
): Promise<{ rows: LearnerProgress[]; total: number }> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('course_progress', {
    course_id: courseId,
    search: view.search || null,
    status: view.status,
    sort: view.sort,
    descending: view.descending,
    row_limit: page === 'all' ? null : page.limit,
    row_offset: page === 'all' ? 0 : page.offset,
  });
  if (error) throw serviceError(error);
  const rows = data as Row[];
  return { rows: rows.map(fromRow), total: rows[0]?.total_count ?? 0 };
}

/** One page; `page` says which, so a screen showing the previous page's rows knows it. */
export async function getCourseProgress(
  courseId: string,
  view: ProgressView,
): Promise<{ rows: LearnerProgress[]; total: number; page: number }> {
  const result = await callProgress(courseId, view, {
    limit: PROGRESS_PAGE_SIZE,
    offset: view.page * PROGRESS_PAGE_SIZE,
  });
  return { ...result, page: view.page };
}

/** Every row the filters select, in the table's order (what the export writes). */
export async function getAllCourseProgress(
  courseId: string,
  view: ProgressView,
): Promise<LearnerProgress[]> {
  return (await callProgress(courseId, view, 'all')).rows;
}

export function useCourseProgress(userId: string, courseId: string, view: ProgressView) {
  return useQuery({
    queryKey: [...teachingKeys.progress(userId, courseId), view],
    queryFn: () => getCourseProgress(courseId, view),
    // Sorting or paging keeps the old rows on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  });
}
