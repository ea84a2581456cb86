/** Query keys of the app shell's own reads (the root lives in lib so screens can refresh it). */
import { appShellKeys } from '@/lib/app-session';

export const appKeys = {
  all: appShellKeys.all,
  memberships: (userId: string) => [...appKeys.all, 'memberships', userId] as const,
};
