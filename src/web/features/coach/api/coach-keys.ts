/** Query keys of the coach page, all under the signed-in user. */
export const coachKeys = {
  all: ['coach'] as const,
  user: (userId: string) => [...coachKeys.all, userId] as const,
  topics: (userId: string, courseId: string) =>
    [...coachKeys.user(userId), 'topics', courseId] as const,
  sessions: (userId: string) => [...coachKeys.user(userId), 'sessions'] as const,
  session: (userId: string, sessionId: string) =>
    [...coachKeys.user(userId), 'session', sessionId] as const,
  ownFiles: (userId: string) => [...coachKeys.user(userId), 'own-files'] as const,
};
