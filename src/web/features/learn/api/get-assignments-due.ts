/** Assignments of the given courses that are not yet due, soonest first. */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { learnKeys } from './learn-keys';
import { serviceError } from './scope';

export interface AssignmentDue {
  id: string;
  courseId: string;
  title: string;
  dueAt: string;
  lessonId: string | null;
  assessmentId: string | null;
}

interface AssignmentRow {
  id: string;
  course_id: string;
  title: string;
  due_at: string;
  lesson_id: string | null;
  assessment_id: string | null;
}

export async function getAssignmentsDue(courseIds: readonly string[]): Promise<AssignmentDue[]> {
  if (courseIds.length === 0) return [];
  const client = await getSupabase();
  const { data, error } = await client
    .from('assignments')
    .select('id, course_id, title, due_at, lesson_id, assessment_id')
    .in('course_id', courseIds)
    .gte('due_at', new Date().toISOString())
    .order('due_at')
    .limit(5);
  if (error) throw serviceError(error);
  return (data as AssignmentRow[]).map((row) => ({
    id: row.id,
    courseId: row.course_id,
    title: row.title,
    dueAt: row.due_at,
    lessonId: row.lesson_id,
    assessmentId: row.assessment_id,
  }));
}

export function useAssignmentsDue(userId: string, workspace: string, courseIds: string[]) {
  return useQuery({
    queryKey: [...learnKeys.assignmentsDue(userId, workspace), courseIds.join(',')],
    queryFn: () => getAssignmentsDue(courseIds),
  });
}
