/** The user's enrolments in the workspace's courses, with progress, newest first. */
import { useQuery } from '@tanstack/react-query';
import { workspaceKey, type AppSession } from '@/lib/app-session';
import { getSupabase } from '@/lib/supabase';
import { courseIdsInBoard, courseScopeFilter } from '@/lib/workspace-scope';
import { learnKeys } from './learn-keys';
import { serviceError } from './scope';

export interface Enrolment {
  courseId: string;
  title: string;
  subject: string;
  status: 'active' | 'completed' | 'dropped';
  progressPercent: number;
  enrolledAt: string;
}

interface EnrolmentRow {
  course_id: string;
  status: Enrolment['status'];
  progress_percent: number;
  enrolled_at: string;
  course: { title: string; subject: string };
}

export async function getEnrolments(session: AppSession): Promise<Enrolment[]> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('enrollments')
    .select(
      'course_id, status, progress_percent, enrolled_at, course:courses!inner(title, subject)',
    )
    .eq('user_id', session.userId)
    .neq('status', 'dropped')
    .or(courseScopeFilter(session), { referencedTable: 'course' })
    .order('enrolled_at', { ascending: false })
    .limit(100);
  if (error) throw serviceError(error);
  const rows = data as unknown as EnrolmentRow[];
  const inScope = await courseIdsInBoard(
    client,
    session,
    rows.map((row) => row.course_id),
  );
  return rows
    .filter((row) => inScope.has(row.course_id))
    .map((row) => ({
      courseId: row.course_id,
      title: row.course.title,
      subject: row.course.subject,
      status: row.status,
      progressPercent: row.progress_percent,
      enrolledAt: row.enrolled_at,
    }));
}

export function useEnrolments(session: AppSession) {
  return useQuery({
    queryKey: learnKeys.enrolments(session.userId, workspaceKey(session.workspace)),
    queryFn: () => getEnrolments(session),
  });
}
