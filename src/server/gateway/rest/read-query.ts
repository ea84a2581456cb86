/**
 * Builds the SELECT that answers a read: select list with embedded resources, filters,
 * order and paging, with JSON produced by Postgres itself (`json_agg`) so that PGlite and
 * PostgreSQL return byte-identical bodies.
 */
import {
  ambiguousRelationship,
  noRelationship,
  parseError,
  unknownColumn,
  unknownRelation,
} from './errors';
import type { FieldPath, FilterNode, OrderTerm, SelectItem } from './query-grammar';
import type { Column, ForeignKey, SchemaSnapshot } from './schema-cache';
import { ident, type Params, qualified } from './sql';

/** Filters, order and paging for the top level or for one embedded resource. */
export interface Scope {
  filters: FilterNode[];
  order: OrderTerm[];
  limit?: number;
  offset?: number;
}

export function emptyScope(): Scope {
  return { filters: [], order: [] };
}

export interface ReadRequest {
  select: SelectItem[];
  root: Scope;
  /** Scopes of embedded resources, by their alias or relation name (`courses.order=…`). */
  embeds: Map<string, Scope>;
}

/** Something rows come from: a relation, a function call, or a mutation's RETURNING. */
export interface Source {
  /** For messages: "public.courses". */
  label: string;
  /** The public relation these rows are, for following foreign keys. */
  relation?: string;
  columns: Map<string, Column>;
  /** `<from item> <alias>` */
  from: string;
  alias: string;
}

export class QueryContext {
  private aliases = 0;
  constructor(
    readonly schema: SchemaSnapshot,
    readonly params: Params,
  ) {}
  nextAlias(): string {
    return `_pgrst_${this.aliases++}`;
  }
}

export function relationSource(ctx: QueryContext, name: string): Source {
  const relation = ctx.schema.relations.get(name);
  if (!relation) throw unknownRelation(name);
  const alias = ctx.nextAlias();
  return {
    label: `public.${name}`,
    relation: name,
    columns: relation.columns,
    from: `${qualified(name)} ${alias}`,
    alias,
  };
}

export function fieldSql(ctx: QueryContext, source: Source, field: FieldPath): string {
  if (!source.columns.has(field.column))
    throw unknownColumn(field.column, source.label.replace(/^public\./, ''));
  let sql = `${source.alias}.${ident(field.column)}`;
  for (const step of field.json) {
    const key = /^-?\d+$/.test(step.key)
      ? `${ctx.params.add(Number(step.key))}::int`
      : `${ctx.params.add(step.key)}::text`;
    sql = `(${sql}${step.arrow}${key})`;
  }
  return sql;
}

const comparison: Record<string, string> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'like',
  ilike: 'ilike',
  match: '~',
  imatch: '~*',
  isdistinct: 'is distinct from',
  cs: '@>',
  cd: '<@',
  ov: '&&',
  sl: '<<',
  sr: '>>',
  nxr: '&<',
  nxl: '&>',
  adj: '-|-',
};

const textSearch: Record<string, string> = {
  fts: 'to_tsquery',
  plfts: 'plainto_tsquery',
  phfts: 'phraseto_tsquery',
  wfts: 'websearch_to_tsquery',
};

const isValues: Record<string, string> = {
  null: 'is null',
  not_null: 'is not null',
  true: 'is true',
  false: 'is false',
  unknown: 'is unknown',
};

export function filterSql(ctx: QueryContext, source: Source, node: FilterNode): string {
  if (node.kind === 'logic') {
    const joined = node.children
      .map((child) => filterSql(ctx, source, child))
      .join(node.op === 'and' ? ' and ' : ' or ');
    return node.negate ? `not (${joined})` : `(${joined})`;
  }
  const lhs = fieldSql(ctx, source, node.field);
  let sql: string;
  const value = node.value;
  if (node.op === 'in') {
    const list = value as string[];
    sql =
      list.length === 0 ? 'false' : `${lhs} in (${list.map((v) => ctx.params.add(v)).join(', ')})`;
  } else if (node.op === 'is') {
    sql = `${lhs} ${isValues[value as string]}`;
  } else if (node.op in textSearch) {
    const config = node.config === undefined ? '' : `${ctx.params.add(node.config)}::regconfig, `;
    sql = `${lhs} @@ ${textSearch[node.op]}(${config}${ctx.params.add(value)})`;
  } else {
    const text =
      node.op === 'like' || node.op === 'ilike' ? (value as string).replace(/\*/g, '%') : value;
    sql = `${lhs} ${comparison[node.op]} ${ctx.params.add(text)}`;
  }
  return node.negate ? `not (${sql})` : sql;
}

export function whereSql(ctx: QueryContext, source: Source, filters: FilterNode[]): string[] {
  return filters.map((f) => filterSql(ctx, source, f));
}

export function orderSql(ctx: QueryContext, source: Source, order: OrderTerm[]): string {
  if (order.length === 0) return '';
  const terms = order.map((term) => {
    let sql = fieldSql(ctx, source, term.field);
    if (term.direction) sql += ` ${term.direction}`;
    if (term.nulls) sql += ` nulls ${term.nulls}`;
    return sql;
  });
  return ` order by ${terms.join(', ')}`;
}

export function pagingSql(ctx: QueryContext, scope: Scope): string {
  let sql = '';
  if (scope.limit !== undefined) sql += ` limit ${ctx.params.add(scope.limit)}::bigint`;
  if (scope.offset !== undefined && scope.offset > 0)
    sql += ` offset ${ctx.params.add(scope.offset)}::bigint`;
  return sql;
}

interface Relationship {
  fk: ForeignKey;
  /** to-one: this row points at the embedded row; to-many: embedded rows point here. */
  cardinality: 'to-one' | 'to-many';
}

function findRelationship(
  ctx: QueryContext,
  source: Source,
  target: string,
  hint: string | undefined,
): Relationship {
  const from = source.relation;
  const candidates: Relationship[] = [];
  if (from) {
    for (const fk of ctx.schema.foreignKeys) {
      if (fk.fromRelation === from && fk.toRelation === target)
        candidates.push({ fk, cardinality: 'to-one' });
      if (fk.toRelation === from && fk.fromRelation === target)
        candidates.push({ fk, cardinality: 'to-many' });
    }
  }
  const matching =
    hint === undefined
      ? candidates
      : candidates.filter(
          (c) =>
            c.fk.name === hint || (c.fk.fromColumns.length === 1 && c.fk.fromColumns[0] === hint),
        );
  if (matching.length === 1 && matching[0]) return matching[0];
  const fromLabel = from ?? source.label;
  if (matching.length === 0) {
    throw noRelationship(
      fromLabel,
      target,
      `Searched for a foreign key relationship between '${fromLabel}' and '${target}'${hint ? ` using the hint '${hint}'` : ''} in the schema 'public', but no matches were found.`,
    );
  }
  throw ambiguousRelationship(
    fromLabel,
    target,
    matching.map((m) => ({ name: m.fk.name, cardinality: m.cardinality })),
  );
}

interface EmbedParts {
  /** The embedded rows' FROM, join and filters: `from … where …`. */
  fromWhere: string;
  target: Source;
}

function embedParts(
  ctx: QueryContext,
  parent: Source,
  item: Extract<SelectItem, { kind: 'embed' }>,
  scope: Scope,
): EmbedParts & { rel: Relationship } {
  const relation = ctx.schema.relations.get(item.relation);
  if (!relation) {
    throw noRelationship(parent.relation ?? parent.label, item.relation);
  }
  const rel = findRelationship(ctx, parent, item.relation, item.hint);
  const target = relationSource(ctx, item.relation);
  const [localCols, remoteCols] =
    rel.cardinality === 'to-one'
      ? [rel.fk.fromColumns, rel.fk.toColumns]
      : [rel.fk.toColumns, rel.fk.fromColumns];
  const join = localCols.map(
    (local, i) => `${target.alias}.${ident(remoteCols[i] ?? '')} = ${parent.alias}.${ident(local)}`,
  );
  for (const col of localCols) {
    if (!parent.columns.has(col)) throw unknownColumn(col, parent.label);
  }
  const conditions = [...join, ...whereSql(ctx, target, scope.filters)];
  return { fromWhere: `from ${target.from} where ${conditions.join(' and ')}`, target, rel };
}

function outputName(item: Extract<SelectItem, { kind: 'field' }>): string {
  if (item.alias) return item.alias;
  const last = item.field.json[item.field.json.length - 1];
  return last ? last.key : item.field.column;
}

export interface SelectList {
  columns: string;
  /** Extra WHERE conditions for `!inner` embeds. */
  innerConditions: string[];
}

export function selectListSql(
  ctx: QueryContext,
  source: Source,
  items: SelectItem[],
  embeds: Map<string, Scope>,
  allowEmbed = true,
): SelectList {
  const columns: string[] = [];
  const innerConditions: string[] = [];
  for (const item of items) {
    if (item.kind === 'star') {
      columns.push(`${source.alias}.*`);
    } else if (item.kind === 'field') {
      let sql = fieldSql(ctx, source, item.field);
      if (item.cast) sql = `(${sql})::${item.cast}`;
      columns.push(`${sql} as ${ident(outputName(item))}`);
    } else {
      if (!allowEmbed) throw parseError('Embedding is supported one level deep');
      const name = item.alias ?? item.relation;
      const scope = embeds.get(name) ?? embeds.get(item.relation) ?? emptyScope();
      const { fromWhere, target, rel } = embedParts(ctx, source, item, scope);
      const inner = selectListSql(ctx, target, item.select, new Map(), false).columns || 'null';
      const row = ctx.nextAlias();
      if (rel.cardinality === 'to-one') {
        columns.push(
          `(select row_to_json(${row}) from (select ${inner} ${fromWhere} limit 1) ${row}) as ${ident(name)}`,
        );
      } else {
        const order = orderSql(ctx, target, scope.order);
        const paging = pagingSql(ctx, scope);
        columns.push(
          `(select coalesce(json_agg(${row}), '[]') from (select ${inner} ${fromWhere}${order}${paging}) ${row}) as ${ident(name)}`,
        );
      }
      if (item.inner) innerConditions.push(`exists (select 1 ${fromWhere})`);
    }
  }
  return { columns: columns.join(', '), innerConditions };
}

/** Columns of the shape every read returns: total (if counted), page size and the JSON body. */
export interface ReadResultRow extends Record<string, unknown> {
  total: number | null;
  page_total: number;
  body: string;
}

/**
 * How the response body is written: JSON (PostgREST's default), JSON without null-valued keys
 * (`nulls=stripped`), or CSV as PostgREST writes it: the first row's keys, then each row's
 * record text without its parentheses, one per line.
 */
export type BodyFormat = 'json' | 'json-stripped' | 'csv';

function bodySql(format: BodyFormat, rows: string): string {
  if (format === 'csv') {
    const header = `coalesce((select string_agg(k, ',') from json_object_keys((array_agg(row_to_json(${rows})))[1]) k), '')`;
    const lines = `coalesce(string_agg(substring(${rows}::text, 2, length(${rows}::text) - 2), chr(10)), '')`;
    return `${header} || chr(10) || ${lines}`;
  }
  const row = format === 'json-stripped' ? `json_strip_nulls(row_to_json(${rows}))` : rows;
  return `coalesce(json_agg(${row}), '[]')::text`;
}

export function buildRead(
  ctx: QueryContext,
  source: Source,
  request: ReadRequest,
  options: { count: boolean; prefix?: string; scalarColumn?: string; format?: BodyFormat },
): string {
  const list = selectListSql(ctx, source, request.select, request.embeds);
  const where = [...whereSql(ctx, source, request.root.filters), ...list.innerConditions];
  const whereClause = where.length > 0 ? ` where ${where.join(' and ')}` : '';
  const order = orderSql(ctx, source, request.root.order);
  const paging = pagingSql(ctx, request.root);
  const total = options.count
    ? `(select count(*) from ${source.from}${whereClause})::int`
    : 'null::int';
  const body = options.scalarColumn
    ? `coalesce(json_agg(_pgrst_t.${ident(options.scalarColumn)}), '[]')::text`
    : bodySql(options.format ?? 'json', '_pgrst_t');
  return `${options.prefix ?? ''}select ${total} as total, count(*)::int as page_total, ${body} as body from (select ${list.columns || 'null'} from ${source.from}${whereClause}${order}${paging}) _pgrst_t`;
}
