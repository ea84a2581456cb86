/**
 * Query keys of the account screens' reads. Reads of one user are keyed by the user's id; the
 * session list by the session it is seen from (its "This device" mark depends on it).
 */
import { profileQueryKey } from '@/lib/profile-keys';

export const authKeys = {
  all: ['auth'] as const,
  users: () => [...authKeys.all, 'user'] as const,
  user: (userId: string) => [...authKeys.users(), userId] as const,
  profile: profileQueryKey,
  sessionLists: () => [...authKeys.all, 'sessions'] as const,
  sessions: (sessionId: string) => [...authKeys.sessionLists(), sessionId] as const,
  totpFactor: (userId: string) => [...authKeys.all, 'totp-factor', userId] as const,
  recoveryCodes: (userId: string) => [...authKeys.all, 'recovery-codes', userId] as const,
};
