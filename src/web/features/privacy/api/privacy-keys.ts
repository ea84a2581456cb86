/** Query keys of the privacy screens; every key carries the user, so accounts never mix. */
export const privacyKeys = {
  all: ['privacy'] as const,
  user: (userId: string) => [...privacyKeys.all, userId] as const,
  consent: (userId: string) => [...privacyKeys.user(userId), 'consent'] as const,
  requests: (userId: string) => [...privacyKeys.user(userId), 'requests'] as const,
  queue: (userId: string, scope: string, filter: string) =>
    [...privacyKeys.user(userId), 'queue', scope, filter] as const,
};
