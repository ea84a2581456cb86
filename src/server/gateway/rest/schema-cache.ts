/**
 * What PostgREST calls the schema cache: the relations, columns, keys and functions of each
 * exposed schema (`REST_DB_SCHEMAS`, PostgREST's `db-schemas`; `public` by default), read from
 * the catalog. Every identifier in a request is checked against it before any SQL is built, and
 * it is reloaded after migrations (`NOTIFY pgrst, 'reload schema'`).
 */
import type { Database, Queryable } from '../../db/types';
import type { Logger } from '../../logger';
import { discoverRelationships, type Relationship, type ViewColumnSource } from './relationships';

export const API_SCHEMA = 'public';

export interface Column {
  name: string;
  /** `format_type` text, e.g. "integer", "text[]", "timestamp with time zone". */
  type: string;
  notNull: boolean;
  hasDefault: boolean;
}

export interface ForeignKey {
  name: string;
  fromRelation: string;
  fromColumns: string[];
  toRelation: string;
  toColumns: string[];
}

export interface Relation {
  name: string;
  kind: 'table' | 'view';
  columns: Map<string, Column>;
  primaryKey: string[];
  /** Column sets of the primary key and unique constraints (one-to-one relationships). */
  uniqueKeys: string[][];
}

export interface FunctionArg {
  name: string;
  type: string;
  mode: 'i' | 'o' | 'b' | 'v' | 't';
}

export interface RoutineDef {
  name: string;
  /** Input arguments in declaration order (modes i, b, v). */
  inputs: FunctionArg[];
  /** How many of the trailing inputs have defaults. */
  defaults: number;
  returnsSet: boolean;
  returnType: string;
  /** "void", "scalar" or "composite" (a table row type or OUT parameters). */
  returnKind: 'void' | 'scalar' | 'composite';
  /** Output columns for composite returns. */
  outputs: Column[];
  /** The public relation whose row type the function returns, for embedding. */
  returnRelation: string | undefined;
  /** The public relation whose row type the first input is (computed fields take one). */
  firstArgRelation: string | undefined;
  /** The planner's row estimate (`ROWS`); a set function declared `ROWS 1` embeds to-one. */
  estimatedRows: number;
  volatility: 'i' | 's' | 'v';
}

export interface SchemaSnapshot {
  /** The schema these relations and functions are in (a request's profile picks it). */
  name: string;
  relations: Map<string, Relation>;
  foreignKeys: ForeignKey[];
  /** What embedding can follow, by the relation it starts from. */
  relationships: Map<string, Relationship[]>;
  /**
   * Computed fields by relation, then name: functions whose one input is the relation's row
   * and that return one value (PostgREST's "computed fields"), usable like columns.
   */
  computedFields: Map<string, Map<string, RoutineDef>>;
  functions: Map<string, RoutineDef[]>;
}

interface RelationRow extends Record<string, unknown> {
  oid: number;
  name: string;
  relkind: string;
  columns: Column[];
  pk: string[] | null;
  uniques: string[][] | null;
  /** Column names by attribute number. */
  attnames: Record<string, string>;
  /** A view's query tree as text (`pg_rewrite.ev_action`). */
  view_rule: string | null;
}

interface FunctionRow extends Record<string, unknown> {
  name: string;
  returns_set: boolean;
  return_type: string;
  return_typtype: string;
  return_relid: number;
  return_relname: string | null;
  first_arg_relname: string | null;
  return_columns: Column[] | null;
  arg_defaults: number;
  estimated_rows: number;
  volatility: 'i' | 's' | 'v';
  args: FunctionArg[];
}

const relationsSql = `
select c.relname as name, c.relkind::text as relkind,
  coalesce((select json_agg(json_build_object(
      'name', a.attname,
      'type', format_type(a.atttypid, a.atttypmod),
      'notNull', a.attnotnull,
      'hasDefault', a.atthasdef or a.attidentity <> '' or a.attgenerated <> '')
    order by a.attnum)
    from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped), '[]') as columns,
  (select json_agg(a.attname order by k.ord)
    from pg_index i
    cross join unnest(i.indkey::int2[]) with ordinality k(attnum, ord)
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
    where i.indrelid = c.oid and i.indisprimary) as pk,
  (select json_agg((select json_agg(a.attname order by a.attname)
      from unnest(con.conkey) k(attnum)
      join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum))
    from pg_constraint con where con.conrelid = c.oid and con.contype in ('p', 'u')) as uniques,
  coalesce((select json_object_agg(a.attnum, a.attname)
    from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped), '{}') as attnames,
  (select r.ev_action::text from pg_rewrite r
    where r.ev_class = c.oid and r.rulename = '_RETURN' and c.relkind in ('v', 'm')) as view_rule,
  c.oid::int as oid
from pg_class c
join pg_namespace n on n.oid = c.relnamespace
where n.nspname = $1 and c.relkind in ('r', 'v', 'm', 'f', 'p')`;

const foreignKeysSql = `
select con.conname as name, src.relname as from_relation, tgt.relname as to_relation,
  (select json_agg(a.attname order by k.ord) from unnest(con.conkey) with ordinality k(attnum, ord)
    join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum) as from_columns,
  (select json_agg(a.attname order by k.ord) from unnest(con.confkey) with ordinality k(attnum, ord)
    join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.attnum) as to_columns
from pg_constraint con
join pg_class src on src.oid = con.conrelid
join pg_namespace sn on sn.oid = src.relnamespace
join pg_class tgt on tgt.oid = con.confrelid
join pg_namespace tn on tn.oid = tgt.relnamespace
where con.contype = 'f' and con.conparentid = 0 and sn.nspname = $1 and tn.nspname = $1`;

const functionsSql = `
select p.proname as name, p.proretset as returns_set,
  format_type(p.prorettype, null) as return_type, t.typtype::text as return_typtype,
  t.typrelid::int as return_relid,
  (select rc.relname from pg_class rc join pg_namespace rn on rn.oid = rc.relnamespace
    where rc.oid = t.typrelid and rn.nspname = $1) as return_relname,
  (select rc.relname from pg_type at
    join pg_class rc on rc.oid = at.typrelid
    join pg_namespace rn on rn.oid = rc.relnamespace
    where at.oid = p.proargtypes[0] and rn.nspname = $1) as first_arg_relname,
  (select json_agg(json_build_object(
      'name', a.attname, 'type', format_type(a.atttypid, a.atttypmod),
      'notNull', false, 'hasDefault', false) order by a.attnum)
    from pg_attribute a where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped)
    as return_columns,
  p.pronargdefaults::int as arg_defaults, p.provolatile::text as volatility,
  p.prorows::float8 as estimated_rows,
  coalesce((select json_agg(json_build_object(
      'name', coalesce(p.proargnames[a.ord], ''),
      'type', format_type(a.typ, null),
      'mode', coalesce(p.proargmodes[a.ord]::text, 'i')) order by a.ord)
    from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality a(typ, ord)), '[]')
    as args
from pg_proc p
join pg_namespace n on n.oid = p.pronamespace
join pg_type t on t.oid = p.prorettype
where n.nspname = $1 and p.prokind = 'f'
-- Creation order, so overloads are listed alike on every load and database (PGRST203's message).
order by p.oid`;

function toRoutine(row: FunctionRow): RoutineDef {
  const inputs = row.args.filter((a) => a.mode === 'i' || a.mode === 'b' || a.mode === 'v');
  const outArgs = row.args.filter((a) => a.mode === 'o' || a.mode === 'b' || a.mode === 't');
  let returnKind: RoutineDef['returnKind'] = 'scalar';
  let outputs: Column[] = [];
  if (row.return_type === 'void') returnKind = 'void';
  else if (row.return_relid !== 0 && row.return_columns) {
    returnKind = 'composite';
    outputs = row.return_columns;
  } else if (row.return_type === 'record' && outArgs.length > 0) {
    returnKind = 'composite';
    outputs = outArgs.map((a) => ({
      name: a.name,
      type: a.type,
      notNull: false,
      hasDefault: false,
    }));
  }
  return {
    name: row.name,
    inputs,
    defaults: row.arg_defaults,
    returnsSet: row.returns_set,
    returnType: row.return_type,
    returnKind,
    outputs,
    returnRelation: row.return_relname ?? undefined,
    firstArgRelation: row.first_arg_relname ?? undefined,
    estimatedRows: row.estimated_rows,
    volatility: row.volatility,
  };
}

/**
 * Which base-table column each view column shows unchanged, read from the view's stored query
 * tree: a target entry's `resorigtbl`/`resorigcol` name the column it comes from. Entries of
 * subqueries carry the same fields, so a view column counts only when every entry with its
 * number and name points at one place. Views over views are followed down to tables.
 */
function viewColumnSources(rows: RelationRow[]): ViewColumnSource[] {
  const byOid = new Map(rows.map((row) => [row.oid, row]));
  const entry =
    /:resno (\d+) :resname (\S+) :ressortgroupref \d+ :resorigtbl (\d+) :resorigcol (\d+)/g;
  /** view name → view column → [relation, column] it shows */
  const direct = new Map<string, Map<string, [string, string]>>();
  for (const row of rows) {
    if (!row.view_rule) continue;
    const found = new Map<string, Set<string>>();
    for (const match of row.view_rule.matchAll(entry)) {
      const [, resno = '', resname = '', table = '0', column = '0'] = match;
      if (row.attnames[resno] !== resname) continue;
      const origin = byOid.get(Number(table));
      const originColumn = origin?.attnames[column];
      const key = origin && originColumn ? JSON.stringify([origin.name, originColumn]) : 'none';
      found.set(resname, (found.get(resname) ?? new Set()).add(key));
    }
    const columns = new Map<string, [string, string]>();
    for (const [name, origins] of found) {
      const [only] = origins;
      if (origins.size === 1 && only && only !== 'none')
        columns.set(name, JSON.parse(only) as [string, string]);
    }
    direct.set(row.name, columns);
  }
  const sources: ViewColumnSource[] = [];
  for (const [view, columns] of direct) {
    for (const [column, origin] of columns) {
      let [table, tableColumn] = origin;
      // A view over a view: follow until a table (bounded, views cannot be cyclic).
      for (let hops = 0; direct.has(table) && hops < 100; hops++) {
        const next = direct.get(table)?.get(tableColumn);
        if (!next) break;
        [table, tableColumn] = next;
      }
      if (!direct.has(table)) sources.push({ view, column, table, tableColumn });
    }
  }
  return sources;
}

export async function readSchema(db: Queryable, schema = API_SCHEMA): Promise<SchemaSnapshot> {
  const [relations, foreignKeys, functions] = [
    await db.query<RelationRow>(relationsSql, [schema]),
    await db.query<{
      name: string;
      from_relation: string;
      to_relation: string;
      from_columns: string[];
      to_columns: string[];
    }>(foreignKeysSql, [schema]),
    await db.query<FunctionRow>(functionsSql, [schema]),
  ];
  const snapshot: SchemaSnapshot = {
    name: schema,
    relations: new Map(),
    relationships: new Map(),
    computedFields: new Map(),
    foreignKeys: foreignKeys.rows.map((r) => ({
      name: r.name,
      fromRelation: r.from_relation,
      fromColumns: r.from_columns,
      toRelation: r.to_relation,
      toColumns: r.to_columns,
    })),
    functions: new Map(),
  };
  for (const row of relations.rows) {
    snapshot.relations.set(row.name, {
      name: row.name,
      kind: row.relkind === 'v' || row.relkind === 'm' ? 'view' : 'table',
      columns: new Map(row.columns.map((c) => [c.name, c])),
      primaryKey: row.pk ?? [],
      uniqueKeys: row.uniques ?? [],
    });
  }
  const routines = functions.rows.map(toRoutine);
  snapshot.relationships = discoverRelationships(
    snapshot.relations,
    snapshot.foreignKeys,
    viewColumnSources(relations.rows),
    routines.flatMap((r) =>
      r.inputs.length === 1 && r.firstArgRelation && r.returnRelation
        ? [
            {
              name: r.name,
              from: r.firstArgRelation,
              to: r.returnRelation,
              single: !r.returnsSet || r.estimatedRows === 1,
            },
          ]
        : [],
    ),
  );
  for (const routine of routines) {
    const overloads = snapshot.functions.get(routine.name) ?? [];
    overloads.push(routine);
    snapshot.functions.set(routine.name, overloads);
    const owner = routine.firstArgRelation;
    if (
      owner &&
      routine.inputs.length - routine.defaults <= 1 &&
      routine.inputs.length >= 1 &&
      !routine.returnsSet &&
      routine.returnKind !== 'void'
    ) {
      const fields = snapshot.computedFields.get(owner) ?? new Map<string, RoutineDef>();
      fields.set(routine.name, routine);
      snapshot.computedFields.set(owner, fields);
    }
  }
  return snapshot;
}

export interface SchemaCache {
  /** The exposed schemas, the default first. */
  readonly schemas: readonly string[];
  /**
   * The latest snapshot of one exposed schema (the default one unless named); waits while a
   * reload is in flight so requests see new DDL.
   */
  current(schema?: string): Promise<SchemaSnapshot>;
  reload(): Promise<SchemaSnapshot>;
  /**
   * Rereads the catalog after a lookup missed, at most once a second: DDL run without the
   * NOTIFY (or a NOTIFY still in flight) becomes visible without letting unknown names
   * trigger a catalog scan on every request.
   */
  refreshAfterMiss(schema?: string): Promise<SchemaSnapshot | undefined>;
}

/** Every exposed schema's snapshot, read in one load so they never disagree in age. */
async function readSchemas(
  db: Queryable,
  schemas: readonly string[],
): Promise<Map<string, SchemaSnapshot>> {
  const all = new Map<string, SchemaSnapshot>();
  for (const schema of schemas) all.set(schema, await readSchema(db, schema));
  return all;
}

const MISS_RELOAD_INTERVAL_MS = 1000;

/** Loads lazily and keeps the cache fresh on `NOTIFY pgrst, 'reload schema'`. */
export function createSchemaCache(
  db: Database,
  log: Logger,
  schemas: readonly string[] = [API_SCHEMA],
): SchemaCache {
  const [defaultSchema = API_SCHEMA] = schemas;
  let last: Map<string, SchemaSnapshot> | undefined;
  let loadedAt = 0;
  /** Which load `last` came from: loads can finish out of order, and the newest read wins. */
  let lastLoad = 0;
  let loads = 0;
  let pending: Promise<Map<string, SchemaSnapshot>> | undefined;
  let listening = false;

  /** The snapshot of an exposed schema (callers have checked the name against `schemas`). */
  function pick(all: Map<string, SchemaSnapshot>, schema = defaultSchema): SchemaSnapshot {
    const snapshot = all.get(schema);
    if (!snapshot) throw new Error(`schema ${schema} is not exposed`);
    return snapshot;
  }

  function load(): Promise<Map<string, SchemaSnapshot>> {
    const started = Date.now();
    const mine = ++loads;
    const attempt: Promise<Map<string, SchemaSnapshot>> = readSchemas(db, schemas)
      .then(
        (snapshot) => {
          // A slow read that began before a newer one must not bring back the older catalog.
          if (mine < lastLoad && last) return last;
          last = snapshot;
          lastLoad = mine;
          loadedAt = started;
          return snapshot;
        },
        (error: unknown) => {
          log.error('schema cache reload failed', { error: (error as Error).message });
          // Keep serving the last good snapshot.
          if (last) return last;
          throw error;
        },
      )
      .finally(() => {
        if (pending === attempt) pending = undefined;
      });
    pending = attempt;
    return attempt;
  }

  function listen() {
    if (listening) return;
    listening = true;
    db.listen('pgrst', (payload) => {
      if (payload === '' || payload === 'reload schema') void load().catch(() => undefined);
    }).catch((error: unknown) => {
      listening = false;
      log.error('schema cache could not listen for reloads', { error: (error as Error).message });
    });
  }

  return {
    schemas,
    async current(schema) {
      listen();
      if (pending) return pick(await pending, schema);
      if (last) return pick(last, schema);
      return pick(await load(), schema);
    },
    async reload() {
      return pick(await load());
    },
    async refreshAfterMiss(schema) {
      if (pending) return pick(await pending, schema);
      if (Date.now() - loadedAt < MISS_RELOAD_INTERVAL_MS) return undefined;
      return pick(await load(), schema);
    },
  };
}
