/**
 * The courses the user teaches in the workspace's organization (Personal mode: their own
 * courses), with enrolled learners and attempts awaiting grading (teaching_courses).
 */
import { useQuery } from '@tanstack/react-query';
import type { AppSession } from '@/lib/app-session';
import { getSupabase } from '@/lib/supabase';
import { organizationOf, serviceError, teachingKeys } from './teaching-keys';

export interface TeachingCourse {
  id: string;
  title: string;
  subject: string;
  published: boolean;
  learners: number;
  awaitingGrading: number;
}

interface Row {
  course_id: string;
  title: string;
  subject: string;
  published: boolean;
  learners: number;
  awaiting_grading: number;
}

export async function getTeachingCourses(organization: string | null): Promise<TeachingCourse[]> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('teaching_courses', { organization });
  if (error) throw serviceError(error);
  return (data as Row[]).map((row) => ({
    id: row.course_id,
    title: row.title,
    subject: row.subject,
    published: row.published,
    learners: row.learners,
    awaitingGrading: row.awaiting_grading,
  }));
}

export function useTeachingCourses(session: AppSession) {
  const organization = organizationOf(session.workspace);
  return useQuery({
    queryKey: teachingKeys.courses(session.userId, organization ?? 'personal'),
    queryFn: () => getTeachingCourses(organization),
  });
}
