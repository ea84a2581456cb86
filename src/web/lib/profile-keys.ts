/**
 * The query key of the signed-in user's profile row, shared by the header (which shows the
 * name) and the screens that change it, so a saved name shows everywhere at once.
 */
export const profileQueryKey = (userId: string) => ['auth', 'profile', userId] as const;
