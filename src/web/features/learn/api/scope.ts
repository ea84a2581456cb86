/**
 * How a workspace narrows the course lists (PostgREST `or` filters on `courses`): in an
 * organization its own courses and public ones; in Personal mode public courses and the
 * user's own personal courses. Row-level security still decides what may be read at all.
 */
import type { AppSession } from '@/lib/app-session';

export function courseScopeFilter(session: AppSession): string {
  const { workspace } = session;
  if (workspace.kind === 'personal') {
    return `visibility.eq.public,and(organization_id.is.null,owner_id.eq.${session.userId})`;
  }
  return `organization_id.eq.${workspace.organizationId},visibility.eq.public`;
}

/** A Supabase error as an Error with the service's message (what the screens show). */
export function serviceError(error: { message: string }): Error {
  return new Error(error.message);
}
