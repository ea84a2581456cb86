/**
 * `/rest/v1`: the PostgREST subset supabase-js uses, over the schemas `REST_DB_SCHEMAS` exposes
 * (a request picks one with `Accept-Profile` / `Content-Profile`). Every request
 * runs under the request's role and claims (`db.asRole` / `db.queryAsRole`), so row-level
 * security decides what it sees and changes.
 */
import { Hono, type Context } from 'hono';
import { isIepProcedure, logRefusedIepCall } from '../../compliance/iep-documents';
import type { Queryable, RoleOptions } from '../../db/types';
import { apiAuth } from '../api-auth';
import type { ApiVariables, GatewayDeps } from '../context';
import { BodyError, readBodyLimited } from '../ops/body';
import { apiCors } from '../ops/cors';
import {
  fromDatabaseError,
  internalError,
  invalidBody,
  invalidPath,
  invalidPreferences,
  invalidSchema,
  mediaTypeUnavailable,
  maxAffectedViolated,
  notSingular,
  parseError,
  payloadTooLarge,
  rangeNotSatisfiable,
  RestError,
  unknownRelation,
  unsupportedMethod,
} from './errors';
import { parseColumns } from './query-grammar';
import {
  buildCountPlan,
  buildRead,
  EMPTY_BODY,
  planRows,
  QueryContext,
  relationSource,
  type ReadRequest,
  type ReadResultRow,
  type Source,
} from './read-query';
import {
  applyRangeHeader,
  parsePrefer,
  parseQuery,
  negotiateMedia,
  acceptedTypes,
  type Media,
  type Preferences,
} from './request-query';
import { createReadPlans, readPlanKey } from './read-plans';
import { buildRpc, rawBodyType, resolveRoutine, withRepeatedArrays } from './rpc-query';
import { createSchemaCache, type SchemaCache, type SchemaSnapshot } from './schema-cache';
import { sharedRpcCache } from './shared-rpc-cache';
import { ident, Params } from './sql';
import { buildDelete, buildInsert, buildUpdate, insertRows, writeColumns } from './write-query';
import { cachedVerifier } from '../ops/verified-tokens';
import { errorResponse, sized } from './wire';

/** Largest request body the REST service reads (PostgREST itself has none; we refuse with 413). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Oversize bodies up to this size are drained before the 413; larger ones are cut off. */
const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

/** What the REST service's first middleware reads from the request for every handler. */
export type RestEnv = {
  Variables: ApiVariables & { media: Media; prefs: Preferences; dbSchema: string };
};
type RestContext = Context<RestEnv>;

/** Thrown out of a transaction to roll it back, carrying the answer the work produced. */
class RollbackWith extends Error {
  constructor(readonly response: Response) {
    super('rollback');
  }
}

/** Methods whose body the service reads (PostgREST ignores a GET's or a HEAD's). */
const bodyMethods = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/** Methods whose schema `Content-Profile` names (PostgREST's list); others read `Accept-Profile`. */
const writeMethods = bodyMethods;

/**
 * Public calls every visitor polls, answered from a shared cache at most a second old
 * (decision 0017): the same answer for every caller of a role.
 */
export const publicRpcCaching = {
  functions: ['get_public_platform_metrics'],
  maxAgeMs: 1000,
} as const;

/** `Prefer: return=headers-only`: where the first inserted row can be read back. */
function locationOf(relation: string, primaryKey: string[], body: string): string | undefined {
  if (primaryKey.length === 0) return undefined;
  const [first] = JSON.parse(body) as Record<string, unknown>[];
  if (!first || !primaryKey.every((key) => first[key] !== undefined && first[key] !== null)) {
    return undefined;
  }
  const query = primaryKey
    .map((key) => `${encodeURIComponent(key)}=eq.${encodeURIComponent(String(first[key]))}`)
    .join('&');
  return `/${encodeURIComponent(relation)}?${query}`;
}

export interface RestService {
  app: Hono<RestEnv>;
  schema: SchemaCache;
}

export function createRestService(
  deps: Pick<GatewayDeps, 'config' | 'db' | 'verifier' | 'log'>,
): RestService {
  const { db, log } = deps;
  const queryOptions = { aggregates: deps.config.restAggregatesEnabled };
  const { maxRows, planEnabled, schemas, extraSearchPath } = deps.config.rest;
  const schema = createSchemaCache(db, log, schemas);
  const [defaultSchema = 'public'] = schemas;
  // Every request's transaction looks names up in its schema first, then the extra ones, as
  // PostgREST's db-extra-search-path does: a function in `api` reads `api`'s tables unqualified.
  const searchPaths = new Map(
    schemas.map((name) => [name, [name, ...extraSearchPath].map(ident).join(', ')]),
  );
  const readPlans = createReadPlans();
  const app = new Hono<RestEnv>();

  app.use('*', apiCors());
  app.use('*', apiAuth(cachedVerifier(deps.verifier)));
  // The request's schema, as PostgREST picks it: writes name it in Content-Profile, everything
  // else in Accept-Profile (the other header is not read); none means the first exposed one.
  app.use('*', async (c, next) => {
    const profile = c.req.header(
      writeMethods.has(c.req.method) ? 'content-profile' : 'accept-profile',
    );
    if (profile !== undefined && !schemas.includes(profile)) {
      return errorResponse(c, invalidSchema(profile, schemas));
    }
    c.set('dbSchema', profile ?? defaultSchema);
    await next();
    // PostgREST names the schema of a successful answer when it was, or could have been,
    // chosen by profile.
    if ((profile !== undefined || schemas.length > 1) && c.res.status < 400) {
      c.res.headers.set('Content-Profile', profile ?? defaultSchema);
    }
  });
  // `Accept` and `Prefer` are read once here; the handlers take the result from the context.
  app.use('*', async (c, next) => {
    const accept = c.req.header('accept');
    const media = negotiateMedia(accept, { planEnabled });
    if (!media) return errorResponse(c, mediaTypeUnavailable(acceptedTypes(accept ?? '')));
    const prefs = parsePrefer(c.req.header('prefer'));
    if (prefs.strict && prefs.invalid.length > 0) {
      return errorResponse(c, invalidPreferences(prefs.invalid));
    }
    c.set('media', media);
    c.set('prefs', prefs);
    return next();
  });
  // The body is read once, by the one body reader, before anything looks at it (the shared
  // RPC cache, the handlers); they read it back with `c.req.text()`.
  app.use('*', async (c, next) => {
    if (!bodyMethods.has(c.req.method)) return next();
    let bytes: ArrayBuffer | undefined;
    try {
      bytes = await readBodyLimited(c.req.raw, MAX_BODY_BYTES);
    } catch (error) {
      if (!(error instanceof BodyError)) throw error;
      const tooLarge = payloadTooLarge(MAX_BODY_BYTES);
      // A declared oversize body (up to a bound) is read and discarded before answering, so
      // the client sees the 413 instead of a connection reset mid-upload. Anything else was
      // cut off unread: the connection cannot carry another request.
      const declared = Number(c.req.header('content-length') ?? NaN);
      if (declared <= DRAIN_LIMIT_BYTES && c.req.raw.body) {
        const reader = c.req.raw.body.getReader();
        while (!(await reader.read()).done);
        return errorResponse(c, tooLarge);
      }
      return errorResponse(c, tooLarge, { Connection: 'close' });
    }
    // Hono keeps a promise per body type here (its types say the value); the bytes stay for
    // an RPC's binary (bytea) body, which text would have re-encoded.
    const cache = c.req.bodyCache as { text?: Promise<string>; arrayBuffer?: Promise<ArrayBuffer> };
    cache.text = Promise.resolve(bytes ? new TextDecoder().decode(bytes) : '');
    cache.arrayBuffer = Promise.resolve(bytes ?? new ArrayBuffer(0));
    return next();
  });

  /** The work's answer from a transaction that is then rolled back. */
  async function rolledBack(
    claims: RestContext['var']['claims'],
    work: (tx: Queryable) => Promise<Response>,
    options: RoleOptions,
  ): Promise<Response> {
    try {
      await db.asRole(
        claims,
        async (tx) => {
          throw new RollbackWith(await work(tx));
        },
        options,
      );
    } catch (error) {
      if (error instanceof RollbackWith) return error.response;
      throw error;
    }
    throw new Error('a rolled-back transaction ended without its answer');
  }

  /**
   * Runs the work as the request's role and turns every failure into PostgREST's shape.
   * Work that runs one statement and never needs to roll back afterwards goes through
   * `queryAsRole` (one round trip on PostgreSQL); anything else gets a full `asRole` transaction.
   * `rolled-back` answers with what the work returned and keeps none of its changes (the plan
   * of a write or call, which `options=analyze` runs).
   */
  async function respond(
    c: RestContext,
    mode: 'one-statement' | 'transaction' | 'rolled-back',
    work: (tx: Queryable, snapshot: SchemaSnapshot) => Promise<Response>,
    /** Runs after a refusal (42501) rolled the request back, before it is answered. */
    afterRefusal?: (error: Error) => Promise<void>,
  ) {
    const claims = c.get('claims');
    const dbSchema = c.get('dbSchema');
    const roleOptions = { searchPath: searchPaths.get(dbSchema) };
    const oneStatement: Queryable = {
      // Request SQL is built from templates, so few distinct texts: keep them prepared.
      query: (sql, params) =>
        db.queryAsRole(claims, sql, params, { ...roleOptions, prepare: true }),
      exec: () => Promise.reject(new Error('exec is not available to a one-statement request')),
    };
    const run = (snapshot: SchemaSnapshot) =>
      mode === 'transaction'
        ? db.asRole(claims, (tx) => work(tx, snapshot), roleOptions)
        : mode === 'rolled-back'
          ? rolledBack(claims, (tx) => work(tx, snapshot), roleOptions)
          : work(oneStatement, snapshot);
    try {
      const snapshot = await schema.current(dbSchema);
      try {
        return await run(snapshot);
      } catch (error) {
        // A name the cache does not know may be brand-new DDL: reread the catalog once.
        if (
          !(error instanceof RestError) ||
          !['PGRST205', 'PGRST202', '42703', 'PGRST204', 'PGRST200'].includes(error.code)
        )
          throw error;
        const fresh = await schema.refreshAfterMiss(dbSchema);
        if (!fresh || fresh === snapshot) throw error;
        return await run(fresh);
      }
    } catch (error) {
      if (error instanceof RestError) return errorResponse(c, error);
      if (afterRefusal && (error as { code?: unknown }).code === '42501') {
        try {
          await afterRefusal(error as Error);
        } catch (failure) {
          log.error('rest refusal could not be recorded', {
            path: c.req.path,
            error: (failure as Error).message,
          });
          return errorResponse(c, internalError());
        }
      }
      const dbError = fromDatabaseError(error, claims.role);
      if (dbError) return errorResponse(c, dbError);
      log.error('rest request failed', {
        method: c.req.method,
        path: c.req.path,
        error: (error as Error).message,
      });
      return errorResponse(c, internalError());
    }
  }

  async function readJson(c: RestContext): Promise<unknown> {
    const text = await c.req.text();
    if (text.trim() === '') return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw invalidBody(`Empty or invalid json: ${(error as Error).message}`);
    }
  }

  function searchParams(c: RestContext): URLSearchParams {
    return new URL(c.req.url).searchParams;
  }

  /** Answers with the JSON Postgres built, as an array or (for `.single()`) one object. */
  function jsonResponse(
    c: RestContext,
    row: ReadResultRow,
    options: {
      media: Media;
      status: number;
      offset: number;
      prefs: Preferences;
      headOnly?: boolean;
    },
  ): Response {
    const headers: Record<string, string> = {
      'Content-Type': options.media.contentType,
    };
    const { page_total: page, total } = row;
    const lower = options.offset;
    const upper = lower + page - 1;
    const totalText = total === null ? '*' : String(total);
    headers['Content-Range'] =
      page === 0 || upper < lower ? `*/${totalText}` : `${lower}-${upper}/${totalText}`;
    if (options.prefs.applied.length > 0)
      headers['Preference-Applied'] = options.prefs.applied.join(', ');
    let status = options.status;
    if (total !== null && options.status === 200) {
      if (lower > total) {
        const err = rangeNotSatisfiable(
          `An offset of ${lower} was requested, but there are only ${total} rows.`,
        );
        return errorResponse(c, err, headers);
      }
      if (page < total) status = 206;
    }
    let body = row.body;
    if (options.media.shape === 'object') {
      if (page !== 1) throw notSingular(page);
      body = body.slice(1, -1);
    }
    return options.headOnly
      ? c.body(null, status as 200, headers)
      : c.body(body, status as 200, sized(body, headers));
  }

  async function readRelation(c: RestContext) {
    const name = c.req.param('relation') ?? '';
    const { prefs, media } = c.var;
    const method = prefs.count ? prefs.countMethod : undefined;
    const range = c.req.header('range');
    const rangeUnit = c.req.header('range-unit');
    const key = readPlanKey({
      relation: name,
      url: c.req.url,
      range,
      rangeUnit,
      countMethod: method,
      format: media.format,
    });
    return respond(c, 'one-statement', async (tx, snapshot) => {
      const { sql, values, source, read } = readPlans.get(snapshot, key, () => {
        const { read } = parseQuery(searchParams(c));
        applyRangeHeader(read.root, range, rangeUnit);
        if (maxRows !== undefined) read.root.limit = Math.min(read.root.limit ?? maxRows, maxRows);
        const ctx = new QueryContext(snapshot, new Params(), queryOptions);
        const source = relationSource(ctx, name);
        // count=estimated counts exactly up to REST_MAX_ROWS and asks the planner past it.
        const sql = buildRead(ctx, source, read, {
          count: method === 'exact' || method === 'estimated',
          countLimit: method === 'estimated' && maxRows !== undefined ? maxRows + 1 : undefined,
          format: media.format,
        });
        return { sql, values: ctx.params.values, source, read };
      });
      if (media.plan) return planResponse(c, tx, sql, values, media);
      const { rows } = await tx.query<ReadResultRow>(sql, values);
      let row = rows[0] as ReadResultRow;
      const pastMaxRows = maxRows !== undefined && (row.total ?? 0) > maxRows;
      if (method === 'planned' || (method === 'estimated' && pastMaxRows)) {
        const planned = await plannedTotal(tx, snapshot, source, read);
        row = { ...row, total: method === 'planned' ? planned : Math.max(row.total ?? 0, planned) };
      }
      return jsonResponse(c, row, {
        media,
        status: 200,
        offset: read.root.offset ?? 0,
        prefs,
        headOnly: c.req.method === 'HEAD',
      });
    });
  }

  /** The planner's estimate of the rows a read matches (`count=planned`). */
  async function plannedTotal(
    tx: Queryable,
    snapshot: SchemaSnapshot,
    source: Source,
    read: ReadRequest,
  ): Promise<number> {
    const ctx = new QueryContext(snapshot, new Params(), queryOptions);
    const { rows } = await tx.query<{ 'QUERY PLAN': unknown }>(
      buildCountPlan(ctx, source, read),
      ctx.params.values,
    );
    return planRows(rows[0]?.['QUERY PLAN']);
  }

  /** `Accept: application/vnd.pgrst.plan`: EXPLAIN of the read instead of its rows. */
  async function planResponse(
    c: RestContext,
    tx: Queryable,
    sql: string,
    values: readonly unknown[],
    media: Media,
  ): Promise<Response> {
    const plan = media.plan!;
    const options = [`format ${plan.format}`, ...plan.options].join(', ');
    const { rows } = await tx.query<{ 'QUERY PLAN': unknown }>(
      `explain (${options}) ${sql}`,
      values,
    );
    const body =
      plan.format === 'json'
        ? JSON.stringify(rows[0]?.['QUERY PLAN'])
        : rows.map((row) => String(row['QUERY PLAN'])).join('\n');
    return c.body(body, 200, sized(body, { 'Content-Type': media.contentType }));
  }

  function mutationResponse(
    c: RestContext,
    row: ReadResultRow,
    prefs: Preferences,
    media: Media,
    created: boolean,
    inserted?: { relation: string; primaryKey: string[] },
  ): Response {
    const singular = media.shape === 'object';
    if (singular && row.page_total !== 1) throw notSingular(row.page_total);
    const headers: Record<string, string> = {
      'Content-Range':
        row.page_total === 0
          ? '*/*'
          : `0-${row.page_total - 1}/${prefs.count ? row.page_total : '*'}`,
    };
    if (prefs.applied.length > 0) headers['Preference-Applied'] = prefs.applied.join(', ');
    if (prefs.returnMode === 'headers-only' && inserted && row.page_total > 0) {
      const location = locationOf(inserted.relation, inserted.primaryKey, row.body);
      if (location) headers.Location = location;
    }
    if (prefs.returnMode === 'representation') {
      headers['Content-Type'] = media.contentType;
      const body = singular ? row.body.slice(1, -1) : row.body;
      return c.body(body, created ? 201 : 200, sized(body, headers));
    }
    return c.body(null, created ? 201 : 204, headers);
  }

  async function writeRelation(c: RestContext) {
    const name = c.req.param('relation') ?? '';
    const method = c.req.method;
    const { prefs, media } = c.var;
    const singular = media.shape === 'object';
    const body = method === 'DELETE' ? undefined : await readJsonOrError(c);
    if (body instanceof Response) return body;
    // A `.single()` write, or one bounded by `max-affected`, must roll back when it touched the
    // wrong number of rows.
    const bounded = singular || (prefs.maxAffected !== undefined && method !== 'POST');
    // A write's plan (`options=analyze` runs the write) is answered from a rolled-back
    // transaction, so asking for it never changes anything.
    const mode = media.plan ? 'rolled-back' : bounded ? 'transaction' : 'one-statement';
    return respond(c, mode, async (tx, snapshot) => {
      const search = searchParams(c);
      const { read } = parseQuery(search);
      const ctx = new QueryContext(snapshot, new Params(), queryOptions);
      const relation = snapshot.relations.get(name);
      if (!relation) throw unknownRelation(name, snapshot.name);
      const wantRows = prefs.returnMode !== 'minimal' || singular;
      const returning = wantRows ? read : undefined;
      // headers-only reads the new row's key back from JSON to build its Location.
      const format = prefs.returnMode === 'representation' || singular ? media.format : 'json';
      const empty: ReadResultRow = { total: null, page_total: 0, body: EMPTY_BODY[format] };
      let sql: string;
      if (method === 'POST') {
        const rows = insertRows(body);
        const columnsParam = search.get('columns');
        const explicit = columnsParam === null ? undefined : parseColumns(columnsParam);
        const onConflictParam = search.get('on_conflict');
        sql = buildInsert(
          ctx,
          relation,
          {
            rows,
            columns: writeColumns(relation, rows, explicit),
            onConflict: onConflictParam === null ? undefined : parseColumns(onConflictParam),
            resolution: prefs.resolution,
            missingDefault: prefs.missingDefault,
          },
          returning,
          format,
        );
        if (rows.length === 0 && !media.plan) {
          return mutationResponse(c, empty, prefs, media, true);
        }
      } else {
        if (
          read.root.limit !== undefined ||
          read.root.offset !== undefined ||
          read.root.order.length > 0
        ) {
          throw parseError('limit, offset and order are not supported on PATCH and DELETE');
        }
        if (method === 'PATCH') {
          if (typeof body !== 'object' || body === null || Array.isArray(body)) {
            throw invalidBody('Expected a JSON object for PATCH');
          }
          if (Object.keys(body).length === 0) {
            // Nothing to set: nothing runs, and its plan is of a statement that does nothing.
            if (media.plan) return planResponse(c, tx, 'select where false', [], media);
            return mutationResponse(c, empty, prefs, media, false);
          }
          sql = buildUpdate(
            ctx,
            relation,
            body as Record<string, unknown>,
            read.root.filters,
            returning,
            format,
          );
        } else {
          sql = buildDelete(ctx, relation, read.root.filters, returning, format);
        }
      }
      if (media.plan) return planResponse(c, tx, sql, ctx.params.values, media);
      const { rows } = await tx.query<ReadResultRow>(sql, ctx.params.values);
      const affected = (rows[0] as ReadResultRow).page_total;
      // Thrown inside the transaction, so a write that touched the wrong number of rows rolls back.
      if (method !== 'POST' && prefs.maxAffected !== undefined && affected > prefs.maxAffected) {
        throw maxAffectedViolated(affected);
      }
      return mutationResponse(
        c,
        rows[0] as ReadResultRow,
        prefs,
        media,
        method === 'POST',
        method === 'POST' ? { relation: name, primaryKey: relation.primaryKey } : undefined,
      );
    });
  }

  async function readJsonOrError(c: RestContext): Promise<unknown> {
    try {
      return await readJson(c);
    } catch (error) {
      if (error instanceof RestError) return errorResponse(c, error);
      throw error;
    }
  }

  async function callRoutine(c: RestContext) {
    const name = c.req.param('fn') ?? '';
    const method = c.req.method;
    const { prefs, media } = c.var;
    // A text, binary or XML body goes whole to a function's one parameter of that type.
    const rawType = method === 'POST' ? rawBodyType(c.req.header('content-type')) : undefined;
    const body =
      method !== 'POST'
        ? undefined
        : rawType === 'bytea'
          ? Buffer.from(await c.req.arrayBuffer())
          : rawType
            ? await c.req.text()
            : await readJsonOrError(c);
    if (body instanceof Response) return body;
    // A refused call of a procedure that reaches IEP documents leaves its row in the HIPAA
    // access log, written by the platform once the refusal has rolled the call back
    // (decision 0430): the same row a refusal through the iep function leaves.
    let iepCall: { name: string; args: unknown } | undefined;
    const logIepRefusal = async (error: Error) => {
      if (!iepCall) return;
      await logRefusedIepCall(
        db,
        {
          claims: c.get('claims'),
          ip: c.get('clientAddress') ?? null,
          userAgent: c.req.header('user-agent') ?? null,
        },
        iepCall.name,
        iepCall.args,
        error.message,
      );
    };
    // GET runs read-only, which needs its own statement before the call; a call's plan
    // (`options=analyze` runs the function) comes from a rolled-back transaction.
    const mode = media.plan ? 'rolled-back' : method === 'POST' ? 'one-statement' : 'transaction';
    const work = async (tx: Queryable, snapshot: SchemaSnapshot) => {
      const search = searchParams(c);
      let args: unknown;
      let keys: string[];
      let read;
      if (method === 'POST') {
        args = body ?? {};
        keys =
          typeof args === 'object' && args !== null && !Array.isArray(args)
            ? Object.keys(args)
            : [];
        ({ read } = parseQuery(search));
      } else {
        const overloads = snapshot.functions.get(name) ?? [];
        const argNames = new Set(overloads.flatMap((r) => r.inputs.map((a) => a.name)));
        const parsed = parseQuery(search, (key) => argNames.has(key));
        read = parsed.read;
        args = Object.fromEntries(parsed.rest);
        keys = [...parsed.rest.keys()];
      }
      const bodyIsObject = typeof args === 'object' && args !== null && !Array.isArray(args);
      const call = resolveRoutine(snapshot, name, keys, {
        singleObject: prefs.singleObject,
        bodyIsObject: bodyIsObject && !rawType,
        rawType,
      });
      if (method !== 'POST') args = withRepeatedArrays(call.routine, args, search);
      if (snapshot.name === 'public' && isIepProcedure(call.routine.name))
        iepCall = { name: call.routine.name, args };
      if (!call.rawBody && !bodyIsObject)
        throw invalidBody('Expected a JSON object of named arguments');
      applyRangeHeader(read.root, c.req.header('range'), c.req.header('range-unit'));
      // GET must not change data, as in PostgREST.
      if (method !== 'POST') await tx.query('set transaction read only');
      const ctx = new QueryContext(snapshot, new Params(), queryOptions);
      const query = buildRpc(ctx, call, args, read, { count: prefs.count, format: media.format });
      if (media.plan) return planResponse(c, tx, query.sql, ctx.params.values, media);
      const { rows } = await tx.query<ReadResultRow>(query.sql, ctx.params.values);
      if (query.shape === 'void') return c.body(null, 204);
      const row = rows[0] as ReadResultRow;
      if (query.shape === 'array') {
        return jsonResponse(c, row, {
          media,
          status: 200,
          offset: read.root.offset ?? 0,
          prefs,
          headOnly: method === 'HEAD',
        });
      }
      // One composite row: the array's only element, or (as CSV) the table as written. A value
      // that is SQL NULL is the JSON `null` (`buildRpc`), never an empty body.
      const result =
        query.shape === 'object' && (media.format === 'json' || media.format === 'json-stripped')
          ? row.body.slice(1, -1)
          : row.body;
      // One value is one row: counted, it is `0-0/1`, as PostgREST answers.
      const headers: Record<string, string> = {
        'Content-Type': media.contentType,
        'Content-Range': prefs.count ? '0-0/1' : '0-0/*',
      };
      if (prefs.applied.length > 0) headers['Preference-Applied'] = prefs.applied.join(', ');
      return method === 'HEAD'
        ? c.body(null, 200, headers)
        : c.body(result, 200, sized(result, headers));
    };
    return respond(c, mode, work, logIepRefusal);
  }

  app.use('/rpc/:fn', sharedRpcCache(publicRpcCaching));
  app.on(['GET', 'HEAD', 'POST'], '/rpc/:fn', callRoutine);
  app.on(['GET', 'HEAD'], '/:relation', readRelation);
  app.on(['POST', 'PATCH', 'DELETE'], '/:relation', writeRelation);
  app.all('/:relation', (c) => errorResponse(c, unsupportedMethod(c.req.method)));
  app.all('*', (c) => errorResponse(c, invalidPath()));

  return { app, schema };
}

export function restService(
  deps: Pick<GatewayDeps, 'config' | 'db' | 'verifier' | 'log'>,
): Hono<RestEnv> {
  return createRestService(deps).app;
}
