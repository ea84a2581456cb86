/** Query keys of the settings screen's reads, by user. */
export const settingsKeys = {
  all: ['settings'] as const,
  profile: (userId: string) => [...settingsKeys.all, 'profile', userId] as const,
};
