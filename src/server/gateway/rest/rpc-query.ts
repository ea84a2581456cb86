/**
 * `POST|GET /rpc/{fn}`: picks the overload whose argument names match, passes the arguments
 * through `json_to_record` typed from the catalog (so Postgres converts them), and shapes the
 * result as PostgREST does: a scalar, one object, or an array that filters, order and paging
 * apply to.
 */
import { ambiguousFunction, unknownFunction } from './errors';
import {
  bodySql,
  buildRead,
  type BodyFormat,
  type QueryContext,
  type ReadRequest,
  type Source,
} from './read-query';
import type { Column, RoutineDef, SchemaSnapshot } from './schema-cache';
import { ident, qualified } from './sql';

const rawBodyTypes = new Set(['json', 'jsonb', 'text', 'xml', 'bytea']);

export interface RoutineCall {
  routine: RoutineDef;
  /** The whole body goes to the function's one parameter. */
  rawBody: boolean;
}

function signature(name: string, keys: string[]): string {
  return keys.length === 0
    ? `${name} without parameters`
    : `${name}(${[...keys].sort().join(', ')})`;
}

/** The parameter type a POST body of this content type goes to whole, as PostgREST maps them. */
export function rawBodyType(contentType: string | undefined): RawBodyType | undefined {
  const media = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (media === 'text/plain') return 'text';
  if (media === 'application/octet-stream') return 'bytea';
  if (media === 'text/xml') return 'xml';
  return undefined;
}

export type RawBodyType = 'text' | 'bytea' | 'xml';

/**
 * GET arguments of array type (variadic ones included) from every repetition of their
 * parameter (`?tags=a&tags=b`), as PostgREST reads them; one value in array-literal form
 * (`?tags={a,b}`) is passed as written.
 */
export function withRepeatedArrays(
  routine: RoutineDef,
  args: unknown,
  search: URLSearchParams,
): unknown {
  const named = { ...(args as Record<string, unknown>) };
  for (const input of routine.inputs) {
    if (!input.type.endsWith('[]') || !search.has(input.name)) continue;
    const values = search.getAll(input.name);
    named[input.name] = values.length === 1 && values[0]!.startsWith('{') ? values[0] : values;
  }
  return named;
}

export function resolveRoutine(
  schema: SchemaSnapshot,
  name: string,
  keys: string[],
  options: { singleObject: boolean; bodyIsObject: boolean; rawType?: RawBodyType },
): RoutineCall {
  const overloads = schema.functions.get(name) ?? [];
  // Messages name the function as PostgREST does, with the request's schema.
  const qualifiedName = `${schema.name}.${name}`;
  if (options.rawType) {
    const single = overloads.find(
      (r) => r.inputs.length === 1 && r.inputs[0]?.type === options.rawType,
    );
    if (single) return { routine: single, rawBody: true };
    throw unknownFunction(
      `${qualifiedName}(${options.rawType})`,
      `Searched for the function ${qualifiedName} with a single unnamed ${options.rawType} parameter, but no matches were found in the schema cache.`,
      null,
    );
  }
  if (options.singleObject || !options.bodyIsObject) {
    const single = overloads.find(
      (r) => r.inputs.length === 1 && rawBodyTypes.has(r.inputs[0]?.type ?? ''),
    );
    if (single) return { routine: single, rawBody: true };
  }
  const unnamedRaw = overloads.find(
    (r) => r.inputs.length === 1 && r.inputs[0]?.name === '' && rawBodyTypes.has(r.inputs[0].type),
  );
  if (unnamedRaw) return { routine: unnamedRaw, rawBody: true };

  const provided = new Set(keys);
  const matches = overloads.filter((r) => {
    const names = new Set(r.inputs.map((a) => a.name));
    if (![...provided].every((k) => names.has(k))) return false;
    const required = r.inputs.slice(0, r.inputs.length - r.defaults);
    return required.every((a) => provided.has(a.name));
  });
  if (matches.length === 1 && matches[0]) return { routine: matches[0], rawBody: false };
  if (matches.length > 1) {
    // Prefer the overload that takes exactly the given arguments.
    const exact = matches.filter((r) => r.inputs.length === provided.size);
    if (exact.length === 1 && exact[0]) return { routine: exact[0], rawBody: false };
    throw ambiguousFunction(
      matches.map(
        (r) => `${qualifiedName}(${r.inputs.map((a) => `${a.name} => ${a.type}`).join(', ')})`,
      ),
    );
  }
  throw unknownFunction(
    signature(qualifiedName, keys),
    `Searched for the function ${qualifiedName} with ${
      keys.length === 0 ? 'no parameters' : `parameters ${[...keys].sort().join(', ')}`
    }, but no matches were found in the schema cache.`,
    overloads.length > 0
      ? `Perhaps you meant to call the function with parameters: ${overloads
          .map((r) => r.inputs.map((a) => a.name).join(', ') || '(none)')
          .join(' or ')}`
      : null,
  );
}

/** The FROM items and the call expression. */
function callParts(
  ctx: QueryContext,
  call: RoutineCall,
  args: unknown,
): { from: string; call: string } {
  const { routine } = call;
  const fn = qualified(routine.name, ctx.schema.name);
  if (call.rawBody) {
    const type = routine.inputs[0]?.type ?? 'json';
    // Bytes travel as hex: PGlite would send a Buffer parameter as UTF-8 text.
    if (Buffer.isBuffer(args))
      return { from: '', call: `${fn}(decode(${ctx.params.add(args.toString('hex'))}, 'hex'))` };
    const value =
      typeof args === 'string' && type !== 'json' && type !== 'jsonb' ? args : JSON.stringify(args);
    return { from: '', call: `${fn}(${ctx.params.add(value)}::${type})` };
  }
  const given = routine.inputs.filter((a) => Object.hasOwn(args as object, a.name));
  if (given.length === 0) return { from: '', call: `${fn}()` };
  const record = given.map((a) => `${ident(a.name)} ${a.type}`).join(', ');
  const from = `json_to_record(${ctx.params.add(JSON.stringify(args))}::json) as _pgrst_args(${record})`;
  const named = given
    .map(
      (a) => `${a.mode === 'v' ? 'variadic ' : ''}${ident(a.name)} := _pgrst_args.${ident(a.name)}`,
    )
    .join(', ');
  return { from, call: `${fn}(${named})` };
}

export interface RpcQuery {
  sql: string;
  /** How to shape the JSON the query returns. */
  shape: 'void' | 'scalar' | 'object' | 'array';
}

export function buildRpc(
  ctx: QueryContext,
  call: RoutineCall,
  args: unknown,
  read: ReadRequest,
  options: { count: boolean; format?: BodyFormat },
): RpcQuery {
  const { routine } = call;
  const parts = callParts(ctx, call, args);
  const fromArgs = parts.from ? ` from ${parts.from}` : '';
  // CSV and GeoJSON of values, as PostgREST writes them: each value is a row of one column,
  // `pgrst_scalar` (CSV's header; PostGIS's geometry, when it is one, else its 400 22023). A
  // function returning nothing runs the same statement and answers 204 (decision 0049).
  const rowsOfValues = options.format === 'csv' || options.format === 'geojson';
  if (rowsOfValues && routine.returnKind !== 'composite' && !routine.returnsSet) {
    return {
      sql: `select null::int as total, 1 as page_total, ${bodySql(options.format!, '_pgrst_t')} as body from (select ${parts.call} as pgrst_scalar${fromArgs}) _pgrst_t`,
      shape: routine.returnKind === 'void' ? 'void' : 'scalar',
    };
  }
  if (routine.returnKind === 'void') {
    return { sql: `select ${parts.call}${fromArgs}`, shape: 'void' };
  }
  if (routine.returnKind === 'scalar' && !routine.returnsSet) {
    // A value that is SQL NULL is the JSON `null`, with or without `.single()`, as PostgREST's
    // body (`coalesce(json_agg(pgrst_scalar)->0, 'null')`) writes it: never an empty body.
    return {
      sql: `select null::int as total, 1 as page_total, coalesce(to_json(${parts.call})::text, 'null') as body${fromArgs}`,
      shape: 'scalar',
    };
  }
  const alias = ctx.nextAlias();
  const lateral = parts.from ? `${parts.from} cross join lateral ` : '';
  if (routine.returnKind === 'scalar') {
    const column: Column = {
      name: routine.name,
      type: routine.returnType,
      notNull: false,
      hasDefault: false,
    };
    const source: Source = {
      label: `${ctx.schema.name}.${routine.name}`,
      columns: new Map([[routine.name, column]]),
      from: `${lateral}${parts.call} ${alias}(${ident(routine.name)})`,
      alias,
    };
    // A set of scalars is an array of values, not of objects; in CSV or GeoJSON, rows of
    // `pgrst_scalar`.
    const scalarRead: ReadRequest = {
      ...read,
      select: [
        {
          kind: 'field',
          field: { column: routine.name, json: [] },
          alias: rowsOfValues ? 'pgrst_scalar' : undefined,
        },
      ],
    };
    return {
      sql: buildRead(ctx, source, scalarRead, {
        ...options,
        scalarColumn: rowsOfValues ? undefined : routine.name,
      }),
      shape: 'array',
    };
  }
  const source: Source = {
    label: `${ctx.schema.name}.${routine.name}`,
    relation: routine.returnRelation,
    columns: new Map(routine.outputs.map((c) => [c.name, c])),
    from: `${lateral}${parts.call} ${alias}`,
    alias,
  };
  return {
    sql: buildRead(ctx, source, read, options),
    shape: routine.returnsSet ? 'array' : 'object',
  };
}
