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
 *
 * Capture (decision 0304): on PostgreSQL with wal_level=logical, a logical replication stream
 * of the publication `supabase_realtime` (replication.ts), opened when the first subscriber
 * joins; elsewhere (PGlite, or a server without logical replication) the triggers' NOTIFY.
 */
import type { Database, JwtClaims, Row } from '../db/types';
import type { Logger } from '../logger';
import type { Tuple } from './pgoutput';
import { openChangeStream, type ChangeStream, type StreamedChange } from './replication';

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

/** One change as either capture hands it to the delivery. */
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

const JSON_TYPES = new Set([114, 3802]);

/** A tuple's text values as JSON for `jsonb_populate_record` (json columns as their value). */
function tupleJson(tuple: Tuple | undefined, typeOf: Map<string, number>): string {
  if (!tuple) return '{}';
  const values: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(tuple.values))
    values[name] = text !== null && JSON_TYPES.has(typeOf.get(name) ?? 0) ? JSON.parse(text) : text;
  return JSON.stringify(values);
}

/** The columns of `row` named in `names`, where the row has them. */
function pick(row: Record<string, unknown>, names: Iterable<string>): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const name of names) if (name in row) picked[name] = row[name];
  return picked;
}

export type CaptureMode = 'notify' | 'replication';

/** How long a join waits for this process's replication slot. */
const SLOT_WAIT_MS = 5_000;

export class ChangeFeed {
  private readonly subscribers = new Set<ChangeSubscriber>();
  private queue: Promise<void> = Promise.resolve();
  private unlisten: (() => Promise<void>) | undefined;
  private stream: ChangeStream | undefined;
  private opening: Promise<void> | undefined;
  private stopped = false;
  /** How changes are captured, decided by `start()`. */
  mode: CaptureMode = 'notify';

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
    /** The PostgreSQL server's URL, for its replication connection. */
    private readonly databaseUrl?: string,
  ) {}

  async start(): Promise<void> {
    if (this.db.kind === 'postgres' && this.databaseUrl) {
      const { rows } = await this.db.query<{ wal_level: string; can_replicate: boolean }>(
        `select current_setting('wal_level') as wal_level,
                coalesce((select rolsuper or rolreplication from pg_roles
                           where rolname = current_user), false) as can_replicate`,
      );
      const { wal_level: walLevel, can_replicate: canReplicate } = rows[0]!;
      if (walLevel === 'logical' && canReplicate) {
        this.mode = 'replication';
        return;
      }
      this.log.warn(
        walLevel === 'logical'
          ? 'realtime postgres changes use triggers and NOTIFY: the database role may not replicate (grant it REPLICATION to capture changes by logical replication)'
          : `realtime postgres changes use triggers and NOTIFY: PostgreSQL runs with wal_level=${walLevel} (set wal_level=logical to capture changes by logical replication)`,
      );
    }
    this.unlisten = await this.db.listen(CHANGES_CHANNEL, (text) => {
      const change = readNotification(text);
      if (!change) {
        this.log.warn('ignored a realtime change notification that is not a change');
        return;
      }
      if (this.subscribers.size === 0) return;
      this.enqueue(() => this.dispatch(change));
    });
  }

  /**
   * Resolves once changes committed from now on reach the subscribers: with replication, when
   * this process's slot exists (made at the first call), or after `SLOT_WAIT_MS` if making it
   * waits on transactions still running (the connection's other messages wait behind a join).
   * A slot that cannot be made is logged and tried again at the next call; the subscription
   * goes ahead meanwhile.
   */
  async ready(): Promise<void> {
    if (this.mode !== 'replication' || this.stream || this.stopped) return;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, SLOT_WAIT_MS)));
    await Promise.race([this.openStream(), waited]);
    clearTimeout(timer);
  }

  private openStream(): Promise<void> {
    this.opening ??= openChangeStream(
      this.databaseUrl!,
      {
        change: (change) => {
          const { schema, table } = change.relation;
          if (!this.watched({ schema, table, type: change.type })) return;
          this.enqueue(async () => {
            const captured = await this.captured(change);
            if (captured) await this.dispatch(captured);
          });
        },
        commit: (lsn) => this.enqueue(async () => this.stream?.acknowledge(lsn)),
      },
      this.log,
    ).then(
      async (stream) => {
        if (this.stopped) await stream.stop();
        else this.stream = stream;
      },
      (error: unknown) => {
        this.opening = undefined;
        this.log.error('realtime could not open its logical replication slot', {
          error: (error as Error).message,
        });
      },
    );
    return this.opening;
  }

  /** Some subscriber of this process binds to this table and kind of change. */
  private watched(target: ChangeTarget): boolean {
    for (const subscriber of this.subscribers)
      if (subscriber.changeBindings.some((b) => bindingTargets(b, target))) return true;
    return false;
  }

  private enqueue(task: () => Promise<void>): void {
    this.queue = this.queue
      .then(task)
      .catch((error: unknown) =>
        this.log.error('realtime change delivery failed', { error: (error as Error).message }),
      );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.unlisten?.();
    await this.opening;
    await this.stream?.stop();
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

  /**
   * A streamed change in the shape the triggers send (db/platform 0082): values in `to_jsonb`'s
   * form, converted by the database from pgoutput's text; the old record by replica identity.
   */
  private async captured(change: StreamedChange): Promise<Notification | undefined> {
    const { relation } = change;
    const table = `${quoteIdent(relation.schema)}.${quoteIdent(relation.table)}`;
    const typeOf = new Map(relation.columns.map((c) => [c.name, c.typeOid]));
    const newTuple = change.type === 'DELETE' ? undefined : change.newTuple;
    const oldTuple = change.type === 'INSERT' ? undefined : change.old?.tuple;
    let row: { rls: boolean; key_columns: string[] | null; new_row: Row; old_row: Row };
    try {
      const { rows } = await this.db.query<typeof row>(
        `select c.relrowsecurity as rls,
                (select array_agg(a.attname::text order by array_position(i.indkey::int2[], a.attnum))
                   from pg_index i
                   join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey::int2[])
                  where i.indrelid = c.oid and i.indisprimary) as key_columns,
                to_jsonb(jsonb_populate_record(null::${table}, $2::jsonb)) as new_row,
                to_jsonb(jsonb_populate_record(null::${table}, $3::jsonb)) as old_row
           from pg_class c where c.oid = $1::oid`,
        [relation.oid, tupleJson(newTuple, typeOf), tupleJson(oldTuple, typeOf)],
      );
      if (!rows[0]) return undefined;
      row = rows[0];
    } catch (error) {
      this.log.warn('realtime could not read a streamed change', {
        table: `${relation.schema}.${relation.table}`,
        error: (error as Error).message,
      });
      return undefined;
    }
    const keyColumns =
      row.key_columns ?? relation.columns.filter((c) => c.isKey).map((c) => c.name);
    const newRow = newTuple ? pick(row.new_row, Object.keys(newTuple.values)) : null;
    // A key tuple carries NULL in its other columns: only the replica identity's are values.
    const oldColumns =
      change.type !== 'INSERT' && change.old?.kind === 'key'
        ? relation.columns.filter((c) => c.isKey).map((c) => c.name)
        : Object.keys(oldTuple?.values ?? {});
    const oldRow = oldTuple ? pick(row.old_row, oldColumns) : null;
    // As the trigger: the key of the row as it is now, or as it was for a DELETE.
    const key = pick(newRow ?? oldRow ?? {}, keyColumns);
    const identity = relation.replicaIdentity;
    let oldRecord: Record<string, unknown> | null = null;
    if (change.type === 'UPDATE')
      oldRecord =
        identity === 'nothing'
          ? {}
          : identity === 'full' && oldRow
            ? oldRow
            : { ...pick(newRow ?? {}, keyColumns), ...pick(oldRow ?? {}, keyColumns) };
    else if (change.type === 'DELETE')
      oldRecord =
        identity === 'nothing'
          ? {}
          : identity === 'full' && !row.rls && oldRow
            ? oldRow
            : pick(oldRow ?? {}, keyColumns);
    return {
      schema: relation.schema,
      table: relation.table,
      type: change.type,
      commit_timestamp: change.commitTime,
      rls: row.rls,
      key,
      // A value PostgreSQL did not send (unchanged and stored out of line): read the row.
      record: newRow && newTuple?.complete ? newRow : null,
      old_record: oldRecord,
    };
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
