/** Query keys of the app shell's own reads. */
export const appKeys = {
  all: ['app-shell'] as const,
  memberships: (userId: string) => [...appKeys.all, 'memberships', userId] as const,
};
