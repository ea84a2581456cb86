/**
 * How a list reads the workspace's scope (decision 0141). The switcher's choice — Personal
 * mode, a whole organization, or one board of it — is `useAppSession().workspace`; a list
 * narrows its query with these helpers and puts `workspaceKey(workspace)` in its query key, so
 * switching refetches. Row-level security still decides what may be read at all; the scope
 * only narrows.
 *
 * - Reads of `courses`: `.select(withBoardScope('id, title', session))`,
 *   `.or(courseScopeFilter(session))`, then `narrowToBoard(query, session)`.
 * - Rows that carry a `board_id` (memberships): `.eq('board_id', scopeBoardId(session))` when
 *   it is not null.
 * - Rows that name a course (enrolments, progress, attempts): keep the course ids that
 *   `courseIdsInBoard()` returns.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { AppSession } from './app-session';

/** The board the lists narrow to, or null for the whole organization or Personal mode. */
export function scopeBoardId(session: AppSession): string | null {
  return session.workspace.kind === 'organization' ? session.workspace.boardId : null;
}

/**
 * PostgREST `or` filter on `courses`: in Personal mode public courses and the user's own; in
 * an organization its courses and public ones; in a board the organization's courses (which
 * `narrowToBoard` then limits to those distributed to the board).
 */
export function courseScopeFilter(session: AppSession): string {
  const { workspace } = session;
  if (workspace.kind === 'personal') {
    return `visibility.eq.public,and(organization_id.is.null,owner_id.eq.${session.userId})`;
  }
  if (workspace.boardId) return `organization_id.eq.${workspace.organizationId}`;
  return `organization_id.eq.${workspace.organizationId},visibility.eq.public`;
}

/** The embedded distribution a board-scoped course read filters on (`!inner`: must exist). */
const boardEmbed = 'scope_board:course_boards!inner(board_id)';

/** A `courses` select list with the board distribution embedded when a board is chosen. */
export function withBoardScope(select: string, session: AppSession): string {
  return scopeBoardId(session) ? `${select}, ${boardEmbed}` : select;
}

interface Filterable<Q> {
  eq(column: string, value: string): Q;
}

/** Keeps only courses distributed to the chosen board (a no-op outside a board). */
export function narrowToBoard<Q extends Filterable<Q>>(query: Q, session: AppSession): Q {
  const board = scopeBoardId(session);
  return board ? query.eq('scope_board.board_id', board) : query;
}

/**
 * Which of these courses are distributed to the chosen board; all of them outside a board.
 * For lists whose rows name a course rather than being courses.
 */
export async function courseIdsInBoard(
  client: SupabaseClient,
  session: AppSession,
  courseIds: readonly string[],
): Promise<Set<string>> {
  const board = scopeBoardId(session);
  if (!board || courseIds.length === 0) return new Set(courseIds);
  const { data, error } = await client
    .from('course_boards')
    .select('course_id')
    .eq('board_id', board)
    .in('course_id', courseIds);
  if (error) throw new Error(error.message);
  return new Set((data as { course_id: string }[]).map((row) => row.course_id));
}
