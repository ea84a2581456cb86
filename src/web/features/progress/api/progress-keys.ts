/** Query keys of the progress screen's reads, by user. */
export const progressKeys = {
  all: ['progress'] as const,
  user: (userId: string) => [...progressKeys.all, userId] as const,
  summary: (userId: string) => [...progressKeys.user(userId), 'summary'] as const,
  goals: (userId: string) => [...progressKeys.user(userId), 'goals'] as const,
  goalOptions: (userId: string) => [...progressKeys.user(userId), 'goal-options'] as const,
  activity: (userId: string) => [...progressKeys.user(userId), 'activity'] as const,
  leaderboard: (userId: string, courseId: string) =>
    [...progressKeys.user(userId), 'leaderboard', courseId] as const,
};
