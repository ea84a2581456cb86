/**
 * Query keys of the teaching screens. Every read is keyed by the user, so switching account
 * never shows another's rows; lists of a workspace are keyed by its organization too.
 */
import type { Workspace } from '@/lib/app-session';

export const teachingKeys = {
  all: ['teaching'] as const,
  user: (userId: string) => [...teachingKeys.all, userId] as const,
  courses: (userId: string, organization: string) =>
    [...teachingKeys.user(userId), 'courses', organization] as const,
  course: (userId: string, courseId: string) =>
    [...teachingKeys.user(userId), 'course', courseId] as const,
  progress: (userId: string, courseId: string) =>
    [...teachingKeys.course(userId, courseId), 'progress'] as const,
  assignments: (userId: string, courseId: string) =>
    [...teachingKeys.course(userId, courseId), 'assignments'] as const,
  insights: (userId: string, courseId: string) =>
    [...teachingKeys.course(userId, courseId), 'insights'] as const,
  goals: (userId: string, courseId: string, learnerId: string) =>
    [...teachingKeys.course(userId, courseId), 'goals', learnerId] as const,
  queues: (userId: string) => [...teachingKeys.user(userId), 'grading'] as const,
  queue: (userId: string, organization: string, page: number) =>
    [...teachingKeys.queues(userId), organization, page] as const,
  attempt: (userId: string, attemptId: string) =>
    [...teachingKeys.user(userId), 'attempt', attemptId] as const,
};

/** A Supabase error as an Error carrying the service's message, which the screens show. */
export function serviceError(error: { message: string }): Error {
  return new Error(error.message);
}

/** The organization a workspace scopes the teaching lists to; null in Personal mode. */
export function organizationOf(workspace: Workspace): string | null {
  return workspace.kind === 'organization' ? workspace.organizationId : null;
}
