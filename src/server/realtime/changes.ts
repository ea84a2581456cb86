/**
 * Postgres changes (decision 0302): the `realtime_changes` notifications of the tables'
 * triggers (db/platform 0081), matched against the channels' `postgres_changes` bindings and
 * delivered only to subscribers whose own token can select the row.
 *
 * Authorization is per group of subscribers with the same claims (role, user and every other
 * claim but the token's times): one query per group and change, under that role and those
 * claims, reads the row by its primary key, as Supabase's `apply_rls` does. Like it, the check
 * sees the row as it is when the change is handled (a later change may have committed since);
 * unlike it, on an RLS table the group receives that row, never a version it may not have
 * been allowed to see. DELETE cannot be checked (the row is gone): as in Supabase, it is
 * delivered with the old record the trigger sent (only the key on an RLS table).
 * Changes are handled one at a time in commit order, so each connection receives them in order.
 */
import type { Database, JwtClaims } from '../db/types';
import type { Logger } from '../logger';

export const CHANGES_CHANNEL = 'realtime_changes';

export type ChangeType = 'INSERT' | 'UPDATE' | 'DELETE';
const changeEvents = new Set(['INSERT', 'UPDATE', 'DELETE', '*']);
const operators = ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in'] as const;
type Operator = (typeof operators)[number];

export interface Filter {
  column: string;
  operator: Operator;
  /** One value, or the list of `in`. */
  values: string[];
}

/** One `postgres_changes` entry of a join, validated. */
export interface ChangeBinding {
  id: number;
  event: ChangeType | '*';
  schema: string;
  /** Absent: every table of the schema. */
  table?: string;
  filters: Filter[];
  /** What the client sent, echoed with `id` in the join reply. */
  params: Record<string, unknown>;
}

export interface ChangeData {
  schema: string;
  table: string;
  commit_timestamp: string;
  type: ChangeType;
  columns: { name: string; type: string }[];
  record: Record<string, unknown> | null;
  old_record: Record<string, unknown> | null;
  errors: string[] | null;
}

export interface ChangeSubscriber {
  /** Read at each change, so a swapped token applies from the next change on. */
  readonly claims: JwtClaims;
  readonly changeBindings: readonly ChangeBinding[];
  deliverChange(ids: number[], data: ChangeData): void;
}

export class BindingError extends Error {}

/** Splits on commas outside double quotes and parentheses (`a=in.(1,2),b=eq."x,y"`). */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = '';
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && char === '(') depth += 1;
    else if (!quoted && char === ')') depth -= 1;
    if (char === ',' && depth === 0 && !quoted) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"')
    ? value.slice(1, -1)
    : value;
}

/** `column=op.value`, several joined by commas (AND), as realtime-js sends them. */
export function parseFilter(text: string): Filter[] {
  return splitTopLevel(text).map((part) => {
    const match = /^([^=]+)=([a-z]+)\.(.*)$/s.exec(part.trim());
    if (!match) throw new BindingError(`Invalid filter "${part}": expected column=operator.value`);
    const [, column, operator, value] = match as unknown as [string, string, string, string];
    if (!(operators as readonly string[]).includes(operator))
      throw new BindingError(
        `Invalid filter "${part}": the operator must be one of ${operators.join(', ')}`,
      );
    if (operator === 'in') {
      const list = /^\((.*)\)$/s.exec(value);
      if (!list) throw new BindingError(`Invalid filter "${part}": in takes a list, in.(a,b)`);
      return {
        column,
        operator: 'in',
        values: splitTopLevel(list[1]!).map((v) => unquote(v.trim())),
      };
    }
    return { column, operator: operator as Operator, values: [unquote(value)] };
  });
}

let nextBindingId = 1;

/** Validates the join's `postgres_changes` list; `BindingError` says what is wrong. */
export function readBindings(list: unknown[]): ChangeBinding[] {
  return list.map((entry, index) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      throw new BindingError(`postgres_changes[${index}] must be an object`);
    const params = entry as Record<string, unknown>;
    const { event, schema, table, filter } = params;
    if (typeof event !== 'string' || !changeEvents.has(event.toUpperCase()))
      throw new BindingError(
        `postgres_changes[${index}].event must be INSERT, UPDATE, DELETE or *`,
      );
    if (typeof schema !== 'string' || schema === '')
      throw new BindingError(`postgres_changes[${index}].schema is required`);
    if (table !== undefined && table !== null && (typeof table !== 'string' || table === ''))
      throw new BindingError(`postgres_changes[${index}].table must be a table name`);
    if (filter !== undefined && filter !== null && typeof filter !== 'string')
      throw new BindingError(`postgres_changes[${index}].filter must be a string`);
    if (filter && !table)
      throw new BindingError(`postgres_changes[${index}] needs a table to filter on`);
    return {
      id: nextBindingId++,
      event: event.toUpperCase() as ChangeBinding['event'],
      schema,
      table: table === '*' || !table ? undefined : table,
      filters: filter ? parseFilter(filter) : [],
      params,
    };
  });
}

function compare(value: unknown, text: string): number | undefined {
  if (typeof value === 'number') {
    const n = Number(text);
    return Number.isNaN(n) ? undefined : value - n;
  }
  if (typeof value === 'boolean') return String(value) === text ? 0 : value ? 1 : -1;
  if (typeof value === 'string') return value < text ? -1 : value > text ? 1 : 0;
  return undefined;
}

function matchesFilter(row: Record<string, unknown>, filter: Filter): boolean {
  const value = row[filter.column];
  if (value === null || value === undefined) {
    const isNull = filter.values.includes('null');
    return filter.operator === 'eq' || filter.operator === 'in'
      ? isNull
      : filter.operator === 'neq' && !isNull;
  }
  if (filter.operator === 'in') return filter.values.some((v) => compare(value, v) === 0);
  const order = compare(value, filter.values[0]!);
  if (order === undefined) return false;
  switch (filter.operator) {
    case 'eq':
      return order === 0;
    case 'neq':
      return order !== 0;
    case 'lt':
      return order < 0;
    case 'lte':
      return order <= 0;
    case 'gt':
      return order > 0;
    case 'gte':
      return order >= 0;
  }
}

type ChangeTarget = { schema: string; table: string; type: ChangeType };

/** The binding is about this table and kind of change (its filters aside). */
function bindingTargets(binding: ChangeBinding, change: ChangeTarget): boolean {
  return (
    (binding.schema === '*' || binding.schema === change.schema) &&
    (binding.table === undefined || binding.table === change.table) &&
    (binding.event === '*' || binding.event === change.type)
  );
}

export function bindingMatches(
  binding: ChangeBinding,
  change: ChangeTarget,
  row: Record<string, unknown> | null,
): boolean {
  if (!bindingTargets(binding, change)) return false;
  if (binding.filters.length === 0) return true;
  // A DELETE's old record may lack the filtered column (only the key): it is not filtered out.
  if (!row) return false;
  return binding.filters.every(
    (filter) => (change.type === 'DELETE' && !(filter.column in row)) || matchesFilter(row, filter),
  );
}

interface Notification {
  schema: string;
  table: string;
  type: ChangeType;
  commit_timestamp: string;
  rls: boolean;
  key: Record<string, unknown>;
  record: Record<string, unknown> | null;
  old_record: Record<string, unknown> | null;
}

function readNotification(text: string): Notification | undefined {
  try {
    const n = JSON.parse(text) as Notification;
    if (typeof n.schema !== 'string' || typeof n.table !== 'string') return undefined;
    if (!['INSERT', 'UPDATE', 'DELETE'].includes(n.type)) return undefined;
    if (typeof n.key !== 'object' || n.key === null) return undefined;
    return n;
  } catch {
    return undefined;
  }
}

/** The claims that can change what RLS shows: all but the token's own times and id. */
function groupKey(claims: JwtClaims): string {
  const { exp: _exp, iat: _iat, nbf: _nbf, jti: _jti, ...rest } = claims;
  return JSON.stringify(Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export class ChangeFeed {
  private readonly subscribers = new Set<ChangeSubscriber>();
  private queue: Promise<void> = Promise.resolve();
  private unlisten: (() => Promise<void>) | undefined;

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    this.unlisten = await this.db.listen(CHANGES_CHANNEL, (text) => {
      const change = readNotification(text);
      if (!change) {
        this.log.warn('ignored a realtime change notification that is not a change');
        return;
      }
      if (this.subscribers.size === 0) return;
      this.queue = this.queue
        .then(() => this.dispatch(change))
        .catch((error: unknown) =>
          this.log.error('realtime change delivery failed', { error: (error as Error).message }),
        );
    });
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    await this.queue;
  }

  add(subscriber: ChangeSubscriber): void {
    this.subscribers.add(subscriber);
  }

  remove(subscriber: ChangeSubscriber): void {
    this.subscribers.delete(subscriber);
  }

  /** Which of the bindings' tables publish their changes (have the trigger). */
  async unpublished(bindings: readonly ChangeBinding[]): Promise<ChangeBinding[]> {
    if (bindings.length === 0) return [];
    const { rows } = await this.db.query<{ schema_name: string; table_name: string }>(
      'select schema_name, table_name from realtime.published_tables',
    );
    return bindings.filter(
      (b) =>
        !rows.some(
          (r) =>
            (b.schema === '*' || r.schema_name === b.schema) &&
            (b.table === undefined || r.table_name === b.table),
        ),
    );
  }

  private async dispatch(change: Notification): Promise<void> {
    const groups = new Map<string, { claims: JwtClaims; members: ChangeSubscriber[] }>();
    for (const subscriber of this.subscribers) {
      if (!subscriber.changeBindings.some((b) => bindingTargets(b, change))) continue;
      const key = groupKey(subscriber.claims);
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { claims: subscriber.claims, members: [] }));
      group.members.push(subscriber);
    }
    await Promise.all(
      [...groups.values()].map(async ({ claims, members }) => {
        let record: Record<string, unknown> | null = null;
        if (change.type !== 'DELETE') {
          const visible = change.rls
            ? await this.visibleRow(claims, change)
            : await this.readableTable(claims, change);
          if (!visible) return;
          // On an RLS table the row as the group sees it now: the version at the change may
          // not have been visible to it (a later change made it so). Without RLS, the version
          // at the change (the row read now only stands in for a large row sent as its key).
          record = change.rls ? visible : (change.record ?? visible);
        }
        const data: ChangeData = {
          schema: change.schema,
          table: change.table,
          commit_timestamp: change.commit_timestamp,
          type: change.type,
          columns: [],
          record,
          old_record: change.type === 'INSERT' ? null : (change.old_record ?? change.key),
          errors: null,
        };
        const row = change.type === 'DELETE' ? data.old_record : record;
        for (const member of members) {
          const ids = member.changeBindings
            .filter((b) => bindingMatches(b, change, row))
            .map((b) => b.id);
          if (ids.length > 0) member.deliverChange(ids, data);
        }
      }),
    );
  }

  /**
   * A table without RLS shows every row to a role with SELECT on it: a privilege check, which
   * (unlike reading the row) still answers when the row has changed or gone since.
   */
  private async readableTable(
    claims: JwtClaims,
    change: Notification,
  ): Promise<Record<string, unknown> | undefined> {
    const table = `${quoteIdent(change.schema)}.${quoteIdent(change.table)}`;
    const { rows } = await this.db.query<{ readable: boolean }>(
      `select has_table_privilege($1::name, $2::regclass, 'SELECT') as readable`,
      [claims.role, table],
    );
    if (!rows[0]?.readable) return undefined;
    return change.record ?? (await this.visibleRow(claims, change));
  }

  /**
   * The changed row as the claims see it now, or `undefined` if they cannot select it. The
   * key is typed by the table's own row type, so the primary key index answers.
   */
  private async visibleRow(
    claims: JwtClaims,
    change: Notification,
  ): Promise<Record<string, unknown> | undefined> {
    const table = `${quoteIdent(change.schema)}.${quoteIdent(change.table)}`;
    const columns = Object.keys(change.key);
    const where = columns
      .map(
        (c) =>
          `t.${quoteIdent(c)} = (jsonb_populate_record(null::${table}, $1::jsonb)).${quoteIdent(c)}`,
      )
      .join(' and ');
    try {
      const { rows } = await this.db.queryAsRole<{ row: Record<string, unknown> }>(
        claims,
        `select to_jsonb(t) as row from ${table} t where ${where}`,
        [JSON.stringify(change.key)],
        { prepare: true },
      );
      return rows[0]?.row;
    } catch (error) {
      // No grant on the table (42501) means the subscriber may not see it at all.
      if ((error as { code?: unknown }).code !== '42501')
        this.log.warn('realtime change check failed', {
          table: `${change.schema}.${change.table}`,
          error: (error as Error).message,
        });
      return undefined;
    }
  }
}
