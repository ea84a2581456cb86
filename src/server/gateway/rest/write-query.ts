/**
 * INSERT / upsert, UPDATE and DELETE. The body goes to Postgres as one JSON parameter and is
 * turned into rows there (`json_populate_recordset`), so type conversion is Postgres's own and
 * identical on PGlite and PostgreSQL. The mutated rows feed the same read builder through a
 * data-modifying CTE, which is how `return=representation` and embedding work on writes.
 */
import { invalidBody, unknownWriteColumn } from './errors';
import {
  buildRead,
  type QueryContext,
  type BodyFormat,
  type ReadRequest,
  type Source,
  whereSql,
} from './read-query';
import type { FilterNode } from './query-grammar';
import type { Relation } from './schema-cache';
import { ident, qualified } from './sql';

export type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Rows of an insert body: one object or an array of objects. */
export function insertRows(body: unknown): JsonObject[] {
  if (isObject(body)) return [body];
  if (Array.isArray(body) && body.every(isObject)) return body;
  throw invalidBody('Expected a JSON object or an array of JSON objects');
}

function checkColumns(relation: Relation, columns: string[]) {
  for (const column of columns) {
    if (!relation.columns.has(column)) throw unknownWriteColumn(column, relation.name);
  }
}

/** The columns a write names: `columns=` if given, else every key in the body, in order. */
export function writeColumns(
  relation: Relation,
  rows: JsonObject[],
  explicit?: string[],
): string[] {
  const columns = explicit ?? [...new Set(rows.flatMap((row) => Object.keys(row)))];
  checkColumns(relation, columns);
  return columns;
}

function mutationSource(ctx: QueryContext, relation: Relation): Source {
  const alias = ctx.nextAlias();
  return {
    label: `${ctx.schema.name}.${relation.name}`,
    relation: relation.name,
    columns: relation.columns,
    from: `pgrst_source ${alias}`,
    alias,
  };
}

/** Wraps a data-modifying statement so it answers like a read. */
function finish(
  ctx: QueryContext,
  relation: Relation,
  statement: string,
  read: ReadRequest | undefined,
  format: BodyFormat,
): string {
  const prefix = `with pgrst_source as (${statement}) `;
  if (!read) {
    return `${prefix}select null::int as total, count(*)::int as page_total, ''::text as body from pgrst_source`;
  }
  const source = mutationSource(ctx, relation);
  const paged: ReadRequest = { ...read, root: { filters: [], order: [] } };
  return buildRead(ctx, source, paged, { count: false, prefix, format });
}

export interface InsertOptions {
  columns: string[];
  rows: JsonObject[];
  onConflict?: string[];
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  missingDefault: boolean;
}

export function buildInsert(
  ctx: QueryContext,
  relation: Relation,
  options: InsertOptions,
  read: ReadRequest | undefined,
  format: BodyFormat = 'json',
): string {
  const target = qualified(relation.name, ctx.schema.name);
  const { columns, rows } = options;
  const list = columns.map(ident).join(', ');
  let statement: string;
  if (columns.length === 0) {
    // Every column takes its default: one zero-column row per object.
    statement = `insert into ${target} select from json_array_elements(${ctx.params.add(JSON.stringify(rows))}::json)`;
  } else if (options.missingDefault) {
    const values = rows.map((row) => {
      const record = `json_populate_record(null::${target}, ${ctx.params.add(JSON.stringify(row))}::json)`;
      return `(${columns.map((c) => (c in row ? `(${record}).${ident(c)}` : 'default')).join(', ')})`;
    });
    statement = `insert into ${target} (${list}) values ${values.join(', ')}`;
  } else {
    statement = `insert into ${target} (${list}) select ${list} from json_populate_recordset(null::${target}, ${ctx.params.add(JSON.stringify(rows))}::json) _pgrst_body`;
  }
  if (options.resolution) {
    const conflict = options.onConflict ?? relation.primaryKey;
    checkColumns(relation, conflict);
    if (conflict.length === 0) {
      throw invalidBody(
        `An upsert on '${relation.name}' needs on_conflict: the table has no primary key`,
      );
    }
    const updates = columns.map((c) => `${ident(c)} = excluded.${ident(c)}`);
    statement += ` on conflict (${conflict.map(ident).join(', ')}) ${
      options.resolution === 'ignore-duplicates' || updates.length === 0
        ? 'do nothing'
        : `do update set ${updates.join(', ')}`
    }`;
  }
  statement += ` returning ${target}.*`;
  return finish(ctx, relation, statement, read, format);
}

/** The alias an update or delete names its table by, and its ` where …` (empty with no filters). */
function filteredTarget(ctx: QueryContext, relation: Relation, filters: FilterNode[]) {
  const alias = ctx.nextAlias();
  const source: Source = {
    label: `${ctx.schema.name}.${relation.name}`,
    relation: relation.name,
    columns: relation.columns,
    from: `${qualified(relation.name, ctx.schema.name)} ${alias}`,
    alias,
  };
  const where = whereSql(ctx, source, filters);
  return { alias, whereClause: where.length > 0 ? ` where ${where.join(' and ')}` : '' };
}

export function buildUpdate(
  ctx: QueryContext,
  relation: Relation,
  patch: JsonObject,
  filters: FilterNode[],
  read: ReadRequest | undefined,
  format: BodyFormat = 'json',
): string {
  const columns = writeColumns(relation, [patch]);
  const body = `json_populate_record(null::${qualified(relation.name, ctx.schema.name)}, ${ctx.params.add(JSON.stringify(patch))}::json)`;
  // After the body, so its parameter keeps the number it had before the filters'.
  const { alias, whereClause } = filteredTarget(ctx, relation, filters);
  const sets = columns.map((c) => `${ident(c)} = _pgrst_body.${ident(c)}`).join(', ');
  const statement = `update ${qualified(relation.name, ctx.schema.name)} as ${alias} set ${sets} from (select * from ${body}) _pgrst_body${whereClause} returning ${alias}.*`;
  return finish(ctx, relation, statement, read, format);
}

export function buildDelete(
  ctx: QueryContext,
  relation: Relation,
  filters: FilterNode[],
  read: ReadRequest | undefined,
  format: BodyFormat = 'json',
): string {
  const { alias, whereClause } = filteredTarget(ctx, relation, filters);
  const statement = `delete from ${qualified(relation.name, ctx.schema.name)} as ${alias}${whereClause} returning ${alias}.*`;
  return finish(ctx, relation, statement, read, format);
}
