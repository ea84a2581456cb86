/**
 * The `nextCursor` of a list-v2 page, in Supabase Storage's format (base64 of `k:value` lines:
 * `l` the last name returned, `o` the order, `c` the sort column, `a` that column's value on
 * the last entry), so a cursor from either server reads the same. A cursor is client input:
 * every part is checked here, and anything else is refused with a 400 rather than reaching
 * SQL (a bad timestamp would otherwise fail the query).
 */
import { storageErrors } from './errors';

export const LIST_SORT_COLUMNS = ['name', 'created_at', 'updated_at'] as const;
export type ListSortColumn = (typeof LIST_SORT_COLUMNS)[number];
export type ListSortOrder = 'asc' | 'desc';

export interface ListCursor {
  /** The name (a full key, or a folder ending in "/") of the last entry returned. */
  startAfter: string;
  order: ListSortOrder;
  column: ListSortColumn;
  /** ISO time of `column` on the last entry, when sorting by a time column. */
  after?: string;
}

const PARTS = { l: 'startAfter', o: 'order', c: 'column', a: 'after' } as const;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

export function encodeListCursor(cursor: ListCursor): string {
  const lines = [`l:${cursor.startAfter}`, `o:${cursor.order}`, `c:${cursor.column}`];
  if (cursor.after) lines.push(`a:${cursor.after}`);
  return Buffer.from(lines.join('\n')).toString('base64');
}

function invalidCursor(why: string): Error {
  return storageErrors.invalidParameter(
    `Invalid Parameter continuation token: ${why}. Pass the nextCursor of the previous page unchanged.`,
  );
}

export function decodeListCursor(token: string): ListCursor {
  if (!BASE64.test(token)) throw invalidCursor('the cursor is not base64');
  const parts: Partial<Record<(typeof PARTS)[keyof typeof PARTS], string>> = {};
  for (const line of Buffer.from(token, 'base64').toString('utf8').split('\n')) {
    const match = /^(\S):([^\n]*)$/.exec(line);
    const key = match?.[1] as keyof typeof PARTS | undefined;
    if (!match || !key || !(key in PARTS)) throw invalidCursor('the cursor is not one we issued');
    parts[PARTS[key]] = match[2];
  }
  if (!parts.startAfter) throw invalidCursor('the cursor names no entry to continue after');
  const order = parts.order ?? 'asc';
  if (order !== 'asc' && order !== 'desc') throw invalidCursor('unknown sort order');
  const column = parts.column ?? 'name';
  if (!(LIST_SORT_COLUMNS as readonly string[]).includes(column))
    throw invalidCursor('unknown sort column');
  if (column !== 'name') {
    const after = parts.after ?? '';
    if (!ISO_TIME.test(after) || Number.isNaN(Date.parse(after)))
      throw invalidCursor(`the cursor has no valid ${column} to continue after`);
  }
  return {
    startAfter: parts.startAfter,
    order,
    column: column as ListSortColumn,
    ...(column !== 'name' ? { after: parts.after } : {}),
  };
}
