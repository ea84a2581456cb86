/**
 * Builds the SELECT that answers a read: select list with embedded resources, filters,
 * order and paging, with JSON produced by Postgres itself (`json_agg`) so that PGlite and
 * PostgreSQL return byte-identical bodies.
 */
import {
  aggregatesNotAllowed,
  noRelationship,
  notEmbedded,
  notImplemented,
  relatedOrderNotToOne,
  unknownColumn,
  unknownRelation,
} from './errors';
import type {
  Aggregate,
  EmbedItem,
  FieldPath,
  FilterNode,
  OrderTerm,
  SelectItem,
} from './query-grammar';
import { findRelationship, isToOne, type Relationship } from './relationships';
import type { Column, SchemaSnapshot } from './schema-cache';
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

/** An embedded resource's filters, order and paging, and those of the embeds inside it. */
export interface EmbedScope extends Scope {
  embeds: Map<string, EmbedScope>;
}

export interface ReadRequest {
  select: SelectItem[];
  root: Scope;
  /** Scopes of embedded resources, by their alias or relation name (`courses.order=…`). */
  embeds: Map<string, EmbedScope>;
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
  /** Embeds of this level, which null filters (`rel=not.is.null`) and related order name. */
  embedded?: Map<string, EmbeddedRef>;
}

export interface QueryOptions {
  /** Aggregate functions in `select` (PostgREST's `db-aggregates-enabled`). */
  aggregates: boolean;
}

export class QueryContext {
  private aliases = 0;
  constructor(
    readonly schema: SchemaSnapshot,
    readonly params: Params,
    readonly options: QueryOptions = { aggregates: false },
  ) {}
  nextAlias(): string {
    return `_pgrst_${this.aliases++}`;
  }
}

export function relationSource(ctx: QueryContext, name: string): Source {
  const schema = ctx.schema.name;
  const relation = ctx.schema.relations.get(name);
  if (!relation) throw unknownRelation(name, schema);
  const alias = ctx.nextAlias();
  return {
    label: `${schema}.${name}`,
    relation: name,
    columns: relation.columns,
    from: `${qualified(name, schema)} ${alias}`,
    alias,
  };
}

/** A label without its schema: "courses" for "public.courses". */
function unqualifiedLabel(label: string, schema: string): string {
  return label.startsWith(`${schema}.`) ? label.slice(schema.length + 1) : label;
}

/**
 * A column, or a computed field (a function of the row, called on it), with any JSON arrows
 * applied.
 */
export function fieldSql(ctx: QueryContext, source: Source, field: FieldPath): string {
  let sql: string;
  if (source.columns.has(field.column)) {
    sql = `${source.alias}.${ident(field.column)}`;
  } else {
    const computed = source.relation
      ? ctx.schema.computedFields.get(source.relation)?.get(field.column)
      : undefined;
    if (!source.relation || !computed)
      throw unknownColumn(field.column, unqualifiedLabel(source.label, ctx.schema.name));
    // The cast names the row type when the rows come from a mutation's or a function's result.
    const schema = ctx.schema.name;
    sql = `${qualified(computed.name, schema)}(${source.alias}::${qualified(source.relation, schema)})`;
  }
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
  const embed = node.field.json.length === 0 ? source.embedded?.get(node.field.column) : undefined;
  if (embed && node.op === 'is' && (node.value === 'null' || node.value === 'not_null')) {
    // `rel=is.null` keeps rows without an embedded row, `rel=not.is.null` rows with one.
    embed.filtering = true;
    const isNull = (node.value === 'null') !== node.negate;
    return `${embed.alias}.${EMBED_JSON} ${isNull ? 'is null' : 'is not null'}`;
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
    let sql =
      term.relation === undefined
        ? fieldSql(ctx, source, term.field)
        : relatedOrder(ctx, source, term);
    if (term.direction) sql += ` ${term.direction}`;
    if (term.nulls) sql += ` nulls ${term.nulls}`;
    return sql;
  });
  return ` order by ${terms.join(', ')}`;
}

/** `order=rel(col)`: a column of a to-one embed, read from its lateral join. */
function relatedOrder(ctx: QueryContext, source: Source, term: OrderTerm): string {
  const name = term.relation ?? '';
  const embed = source.embedded?.get(name);
  if (!embed) throw notEmbedded(name);
  if (!embed.toOne) throw relatedOrderNotToOne(source.relation ?? source.label, name);
  if (!embed.outputs.has(term.field.column)) throw unknownColumn(term.field.column, name);
  const columns = new Map([
    [term.field.column, { name: term.field.column, type: '', notNull: false, hasDefault: false }],
  ]);
  return fieldSql(ctx, { label: name, columns, from: '', alias: embed.alias }, term.field);
}

export function pagingSql(ctx: QueryContext, scope: Scope): string {
  let sql = '';
  if (scope.limit !== undefined) sql += ` limit ${ctx.params.add(scope.limit)}::bigint`;
  if (scope.offset !== undefined && scope.offset > 0)
    sql += ` offset ${ctx.params.add(scope.offset)}::bigint`;
  return sql;
}

/** The JSON column of an embed's lateral join: an object, an array, or null when none. */
const EMBED_JSON = '"_pgrst_j"';

/** An embed the parent's filters and order can refer to by name. */
interface EmbeddedRef {
  /** The lateral join's alias. */
  alias: string;
  toOne: boolean;
  /** Output names of the embedded select, which a related order may use. */
  outputs: Set<string>;
  /** A null filter names it: the count must join it too. */
  filtering: boolean;
  join: string;
}

interface NodeSql {
  columns: string[];
  outputs: string[];
  /** ` group by …` when the level has aggregates, else empty. */
  groupBy: string;
  joins: string[];
  where: string[];
  order: string;
  paging: string;
  /** Joins that decide which rows there are (`!inner`, null filters), for counting. */
  filteringJoins: string[];
  /**
   * A spread level's aggregates from spreads inside it, by output: not applied here but
   * passed up, as PostgREST hoists them, to the nearest level that is not a to-one spread.
   */
  hoisted: Map<string, Aggregate>;
}

function outputName(item: Extract<SelectItem, { kind: 'field' }>): string {
  if (item.alias) return item.alias;
  const last = item.field.json[item.field.json.length - 1];
  return last ? last.key : item.field.column;
}

/** `rel()` (and `rel(other())`) select nothing: such an embed only filters. */
function selectsNothing(items: SelectItem[]): boolean {
  return items.every(
    (item) => item.kind === 'embed' && !item.spread && selectsNothing(item.select),
  );
}

function joinConditions(
  ctx: QueryContext,
  parent: Source,
  target: Source,
  rel: Relationship,
): { from: string; conditions: string[] } {
  const check = (col: string) => {
    if (!parent.columns.has(col)) throw unknownColumn(col, parent.label);
  };
  if (rel.junction) {
    const j = rel.junction;
    const alias = ctx.nextAlias();
    const on = j.targetColumns.map(
      ([col, jcol]) => `${alias}.${ident(jcol)} = ${target.alias}.${ident(col)}`,
    );
    const conditions = j.sourceColumns.map(([col, jcol]) => {
      check(col);
      return `${alias}.${ident(jcol)} = ${parent.alias}.${ident(col)}`;
    });
    return {
      from: ` join ${qualified(j.table, ctx.schema.name)} ${alias} on ${on.join(' and ')}`,
      conditions,
    };
  }
  const conditions = rel.columns.map(([col, fcol]) => {
    check(col);
    return `${target.alias}.${ident(fcol)} = ${parent.alias}.${ident(col)}`;
  });
  return { from: '', conditions };
}

/** PostgREST's own refusal, word for word: clients match on it. */
const TO_MANY_SPREAD_AGGREGATES =
  'Aggregates are not implemented for one-to-many or many-to-many spreads.';

/**
 * One embedded resource as a lateral join of the parent's query, as PostgREST plans it: a
 * to-one embed's row (and its columns, for spreads and related order), or a to-many embed's
 * rows aggregated into an array (and, spread, one array per column).
 */
function embedJoin(
  ctx: QueryContext,
  parent: Source,
  item: EmbedItem,
  scope: EmbedScope | undefined,
  name: string,
): { ref: EmbeddedRef; columns: EmbedColumn[] } {
  if (!parent.relation)
    throw noRelationship(parent.label, item.relation, item.hint, null, ctx.schema.name);
  const schema = ctx.schema.name;
  const rel = findRelationship(
    ctx.schema.relationships,
    parent.relation,
    item.relation,
    item.hint,
    schema,
  );
  const target = relationSource(ctx, rel.foreignTable);
  if (rel.function !== undefined) {
    // A computed relationship's rows are the function's result on the parent's row.
    target.from = `${qualified(rel.function, schema)}(${parent.alias}::${qualified(parent.relation, schema)}) ${target.alias}`;
  }
  const toOne = isToOne(rel);
  // A to-one spread's aggregates run in the parent, over the spread column (PostgREST hoists
  // them there): the embed selects the plain value under the aggregate's output name.
  const hoisted = new Map<string, Aggregate>();
  let select = item.select;
  if (item.spread && select.some((sub) => sub.kind === 'field' && sub.aggregate)) {
    if (!toOne) throw notImplemented(TO_MANY_SPREAD_AGGREGATES);
    select = select.flatMap((sub): SelectItem[] => {
      if (sub.kind !== 'field' || !sub.aggregate) return [sub];
      const out = sub.alias ?? sub.aggregate.fn;
      hoisted.set(out, sub.aggregate);
      // `count()` counts the parent rows that have the embedded row.
      if (sub.field.column === '*' && sub.field.json.length === 0) return [];
      return [{ kind: 'field', field: sub.field, alias: out, cast: sub.cast }];
    });
  }
  const childScope = scope ?? emptyEmbedScope();
  const node = buildNode(ctx, target, select, childScope, childScope.embeds, true, item.spread);
  // Aggregates of spreads inside this one go on up with it (a to-many spread refuses them).
  if (node.hoisted.size > 0 && !toOne) throw notImplemented(TO_MANY_SPREAD_AGGREGATES);
  for (const [out, aggregate] of node.hoisted) hoisted.set(out, aggregate);
  const link = joinConditions(ctx, parent, target, rel);
  const where = [...link.conditions, ...node.where];
  const inner = `select ${node.columns.join(', ')} from ${target.from}${link.from}${node.joins.join('')} where ${where.length > 0 ? where.join(' and ') : 'true'}${node.groupBy}${node.order}${node.paging}`;
  const alias = ctx.nextAlias();
  const row = ctx.nextAlias();
  const joinType = item.inner ? 'inner' : 'left';
  let lateral: string;
  const columns: EmbedColumn[] = [];
  if (toOne) {
    lateral = `select row_to_json(${row}) as ${EMBED_JSON}, ${row}.* from (${inner}) ${row}`;
  } else {
    const perColumn = item.spread
      ? node.outputs.map((out) => `, json_agg(${row}.${ident(out)}) as ${ident(out)}`).join('')
      : '';
    lateral = `select json_agg(${row}) as ${EMBED_JSON}${perColumn} from (${inner}) ${row}`;
  }
  const on = item.inner && !toOne ? `${alias}.${EMBED_JSON} is not null` : 'true';
  const join = ` ${joinType} join lateral (${lateral}) ${alias} on ${on}`;
  if (item.spread) {
    for (const out of node.outputs) {
      columns.push({
        sql: toOne ? `${alias}.${ident(out)}` : `coalesce(${alias}.${ident(out)}, '[]')`,
        name: out,
        aggregate: hoisted.get(out),
      });
    }
    for (const [out, aggregate] of hoisted) {
      if (!node.outputs.includes(out))
        columns.push({ sql: `${alias}.${EMBED_JSON}`, name: out, aggregate });
    }
  } else if (!selectsNothing(item.select)) {
    columns.push({
      sql: toOne ? `${alias}.${EMBED_JSON}` : `coalesce(${alias}.${EMBED_JSON}, '[]')`,
      name,
    });
  }
  const ref: EmbeddedRef = {
    alias,
    toOne,
    outputs: new Set(node.outputs),
    filtering: item.inner,
    join,
  };
  return { ref, columns };
}

/** An output an embed adds to its parent; a hoisted aggregate applies in the parent. */
interface EmbedColumn {
  sql: string;
  name: string;
  aggregate?: Aggregate;
}

function aggregateSql(aggregate: Aggregate, argument: string): string {
  const sql = `${aggregate.fn}(${argument})`;
  return aggregate.cast ? `(${sql})::${aggregate.cast}` : sql;
}

function emptyEmbedScope(): EmbedScope {
  return { ...emptyScope(), embeds: new Map() };
}

/**
 * The select list, joins, filters, order and paging of one level: the top level or an
 * embedded resource (whose filters, order and paging apply to its own rows).
 */
function buildNode(
  ctx: QueryContext,
  source: Source,
  items: SelectItem[],
  scope: Scope,
  children: Map<string, EmbedScope>,
  embedded: boolean,
  spread = false,
): NodeSql {
  const used = new Set<string>();
  const hoisted = new Map<string, Aggregate>();
  const joined: EmbeddedRef[] = [];
  const named = new Map<string, EmbeddedRef>();
  type Entry =
    { kind: 'star' } | { kind: 'plain' | 'aggregate' | 'embed'; sql: string; name: string };
  const entries: Entry[] = [];
  for (const item of items) {
    if (item.kind === 'star') {
      entries.push({ kind: 'star' });
    } else if (item.kind === 'field') {
      const { aggregate } = item;
      const counted = aggregate && item.field.column === '*' && item.field.json.length === 0;
      let sql = counted ? '*' : fieldSql(ctx, source, item.field);
      if (item.cast) sql = `(${sql})::${item.cast}`;
      entries.push(
        aggregate
          ? {
              kind: 'aggregate',
              sql: aggregateSql(aggregate, sql),
              name: item.alias ?? aggregate.fn,
            }
          : { kind: 'plain', sql, name: outputName(item) },
      );
    } else {
      const name = item.alias ?? item.relation;
      // Filters name an embed by its alias, or by its relation when that is not ambiguous.
      const key = children.has(name)
        ? name
        : item.alias && children.has(item.relation)
          ? item.relation
          : undefined;
      if (key !== undefined) used.add(key);
      const embed = embedJoin(
        ctx,
        source,
        item,
        key === undefined ? undefined : children.get(key),
        name,
      );
      joined.push(embed.ref);
      named.set(name, embed.ref);
      for (const column of embed.columns) {
        // A spread passes its spreads' aggregates up instead of applying them (PostgREST
        // hoists them to the nearest level that is not a to-one spread).
        if (column.aggregate && spread) {
          hoisted.set(column.name, column.aggregate);
          entries.push({ kind: 'plain', sql: column.sql, name: column.name });
          continue;
        }
        entries.push(
          column.aggregate
            ? {
                kind: 'aggregate',
                sql: aggregateSql(column.aggregate, column.sql),
                name: column.name,
              }
            : { kind: 'embed', sql: column.sql, name: column.name },
        );
      }
    }
  }
  const aggregated = entries.some((entry) => entry.kind === 'aggregate');
  if ((aggregated || hoisted.size > 0) && !ctx.options.aggregates) throw aggregatesNotAllowed();
  // With aggregates, every other output groups the rows; embedded JSON groups as jsonb.
  const columns: string[] = [];
  const outputs: string[] = [];
  const groupBy: string[] = [];
  const add = (sql: string, name: string, group: boolean) => {
    columns.push(`${sql} as ${ident(name)}`);
    outputs.push(name);
    if (group) groupBy.push(sql);
  };
  for (const entry of entries) {
    if (entry.kind === 'star') {
      if (aggregated) {
        for (const name of source.columns.keys()) add(`${source.alias}.${ident(name)}`, name, true);
      } else {
        columns.push(`${source.alias}.*`);
        outputs.push(...source.columns.keys());
      }
    } else if (entry.kind === 'aggregate') {
      add(entry.sql, entry.name, false);
    } else if (entry.kind === 'embed' && aggregated) {
      add(`to_jsonb(${entry.sql})`, entry.name, true);
    } else {
      add(entry.sql, entry.name, aggregated);
    }
  }
  for (const name of children.keys()) {
    if (!used.has(name)) throw notEmbedded(name);
  }
  const nodeSource: Source = { ...source, embedded: named };
  const where = whereSql(ctx, nodeSource, scope.filters);
  const order = orderSql(ctx, nodeSource, scope.order);
  return {
    columns: columns.length > 0 || embedded ? columns : ['null'],
    outputs,
    groupBy: groupBy.length > 0 ? ` group by ${groupBy.join(', ')}` : '',
    joins: joined.map((ref) => ref.join),
    where,
    order,
    paging: pagingSql(ctx, scope),
    filteringJoins: joined.filter((ref) => ref.filtering).map((ref) => ref.join),
    hoisted,
  };
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
export type BodyFormat = 'json' | 'json-stripped' | 'csv' | 'geojson';

/** The body of no rows in each format, for writes that run nothing. */
export const EMPTY_BODY: Record<BodyFormat, string> = {
  json: '[]',
  'json-stripped': '[]',
  csv: '\n',
  geojson: '{"type" : "FeatureCollection", "features" : []}',
};

/** The body of `rows` (a row alias of the statement) in a format, built by Postgres. */
export function bodySql(format: BodyFormat, rows: string): string {
  if (format === 'geojson') {
    // PostgREST's GeoJSON: PostGIS writes each row as a Feature (its geometry column as the
    // geometry, the rest as properties). Without PostGIS the function does not exist: 404
    // 42883, as PostgREST answers then; a row without a geometry column is PostGIS's 400 22023.
    return `json_build_object('type', 'FeatureCollection', 'features', coalesce(json_agg(st_asgeojson(${rows})::json), '[]'))::text`;
  }
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
  options: {
    count: boolean;
    /** Count at most this many rows (`count=estimated` stops once past REST_MAX_ROWS). */
    countLimit?: number;
    prefix?: string;
    scalarColumn?: string;
    format?: BodyFormat;
  },
): string {
  const node = buildNode(ctx, source, request.select, request.root, request.embeds, false);
  const whereClause = node.where.length > 0 ? ` where ${node.where.join(' and ')}` : '';
  const matched = `from ${source.from}${node.filteringJoins.join('')}${whereClause}`;
  const total = !options.count
    ? 'null::int'
    : options.countLimit === undefined
      ? `(select count(*) ${matched})::int`
      : `(select count(*) from (select 1 ${matched} limit ${ctx.params.add(options.countLimit)}::bigint) _pgrst_c)::int`;
  const body = options.scalarColumn
    ? `coalesce(json_agg(_pgrst_t.${ident(options.scalarColumn)}), '[]')::text`
    : bodySql(options.format ?? 'json', '_pgrst_t');
  return `${options.prefix ?? ''}select ${total} as total, count(*)::int as page_total, ${body} as body from (select ${node.columns.join(', ')} from ${source.from}${node.joins.join('')}${whereClause}${node.groupBy}${node.order}${node.paging}) _pgrst_t`;
}

/**
 * `count=planned`: the planner's estimate of the rows the read matches, unpaged, as PostgREST
 * takes it (the top plan node's "Plan Rows" of `EXPLAIN (FORMAT JSON)`). The caller's policies
 * are in that plan, so the estimate is of the rows the caller may see. The read is explained
 * whole but unpaged, so every parameter it binds is one it uses; its embeds are joined one row
 * per parent and do not change the estimate.
 */
export function buildCountPlan(ctx: QueryContext, source: Source, request: ReadRequest): string {
  const root = { ...request.root, limit: undefined, offset: undefined };
  const node = buildNode(ctx, source, request.select, root, request.embeds, false);
  const whereClause = node.where.length > 0 ? ` where ${node.where.join(' and ')}` : '';
  return `explain (format json) select ${node.columns.join(', ')} from ${source.from}${node.joins.join('')}${whereClause}${node.order}`;
}

/** The top plan node's row estimate from `EXPLAIN (FORMAT JSON)` output (parsed or as text). */
export function planRows(plan: unknown): number {
  const parsed: unknown = typeof plan === 'string' ? JSON.parse(plan) : plan;
  const rows = (parsed as Array<{ Plan?: { 'Plan Rows'?: unknown } }> | undefined)?.[0]?.Plan?.[
    'Plan Rows'
  ];
  if (typeof rows !== 'number') throw new Error('EXPLAIN gave no row estimate');
  return Math.round(rows);
}
