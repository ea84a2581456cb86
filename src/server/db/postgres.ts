import { hash } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../logger';
import { applyClaims, claimsStatement } from './claims';
import { asUnavailable, isConnectionFailure } from './errors';
import { QueryAfterSetup } from './pg-pipeline';
import type { Database, JwtClaims, QueryResult, Queryable, RoleOptions, Row } from './types';

const INT8 = 20;

/**
 * Statements `queryAsRole` may keep prepared on each connection. Callers with open-ended SQL
 * (REST requests of any shape) get named statements only up to this many distinct texts.
 */
const MAX_PREPARED = 500;

/** How long a request waits for a connection: PostgREST's pool acquisition timeout. */
const CONNECT_TIMEOUT_MS = 10_000;

/** Backoff of the LISTEN connection's reconnects while the server is away. */
const LISTEN_RETRY_MS = { first: 500, max: 10_000 };

type PgLog = Pick<Logger, 'warn' | 'error'>;

const consoleLog: PgLog = {
  warn: (message, fields) => console.warn(message, fields ?? ''),
  error: (message, fields) => console.error(message, fields ?? ''),
};

/** int8 (counts, bigint ids) as numbers, like PGlite; everything else as pg's defaults. */
const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<R extends Row = Row>(sql: string, params: readonly unknown[] = []) {
      const result = await client
        .query({ text: sql, values: [...params], types: typeParsers })
        .catch((error: unknown) => {
          throw asUnavailable(error);
        });
      return {
        rows: result.rows as R[],
        rowCount: result.rowCount ?? result.rows.length,
        fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
      } satisfies QueryResult<R>;
    },
    async exec(sql: string) {
      await client.query(sql).catch((error: unknown) => {
        throw asUnavailable(error);
      });
    },
  };
}

/** A pooled connection, or `DatabaseUnavailableError` when none can be had. */
async function connect(pool: pg.Pool): Promise<pg.PoolClient> {
  try {
    return await pool.connect();
  } catch (error) {
    throw asUnavailable(error);
  }
}

/** Back to the pool, or out of it when its connection failed (the pool then opens a new one). */
function release(client: pg.PoolClient, error?: unknown) {
  client.release(isConnectionFailure(error) ? (error as Error) : undefined);
}

export async function openPostgres(
  connectionString: string,
  poolSize: number,
  log: PgLog = consoleLog,
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // A connection that fails (server restart, backend terminated) emits `error` on its client.
  // The pool listens only while the client is idle: without a listener of our own on every
  // client, a failure during a request is an unhandled `error` event that ends the process.
  // The statement in flight fails on its own, and the pool drops the broken client.
  pool.on('connect', (client) => {
    client.on('error', (error) => log.warn('postgres connection lost', { error: error.message }));
  });
  pool.on('error', (error) => log.warn('postgres idle connection lost', { error: error.message }));
  await pool.query('select 1');
  const root = wrap(pool);
  const listeners = new Set<{ stop(): Promise<void> }>();
  /** Statement text → the name it is prepared under on every connection that has run it. */
  const preparedNames = new Map<string, string>();

  async function transaction<T>(
    fn: (tx: Queryable) => Promise<T>,
    claims?: JwtClaims,
    options: RoleOptions = {},
  ) {
    const client = await connect(pool);
    const tx = wrap(client);
    let failure: unknown;
    try {
      await tx.query('begin');
      if (claims) await applyClaims(tx, claims, options.searchPath);
      const result = await fn(tx);
      await tx.query('commit');
      return result;
    } catch (error) {
      failure = error;
      if (!isConnectionFailure(error)) await client.query('rollback').catch(() => undefined);
      throw asUnavailable(error);
    } finally {
      release(client, failure);
    }
  }

  return {
    kind: 'postgres',
    query: root.query,
    exec: root.exec,
    transaction: (fn) => transaction(fn),
    asRole: (claims, fn, options) => transaction(fn, claims, options),
    async queryAsRole<R extends Row = Row>(
      claims: JwtClaims,
      sql: string,
      params: readonly unknown[] = [],
      options: RoleOptions & { prepare?: boolean } = {},
    ) {
      const setup = claimsStatement(claims, options.searchPath);
      let name: string | undefined;
      if (options.prepare) {
        name = preparedNames.get(sql);
        if (name === undefined && preparedNames.size < MAX_PREPARED) {
          name = `lyceum_${hash('sha1', sql, 'hex').slice(0, 24)}`;
          preparedNames.set(sql, name);
        }
      }
      const client = await connect(pool);
      let failure: unknown;
      try {
        const result = await new Promise<pg.QueryResult>((resolve, reject) => {
          const query = new QueryAfterSetup(setup, {
            name,
            text: sql,
            values: [...params],
            types: typeParsers,
          });
          // A Submittable reports through the callback; pg's typings only know its Query.
          const submit = client as unknown as {
            query(q: unknown, cb: (e: Error | null, r: pg.QueryResult) => void): void;
          };
          submit.query(query, (error, res) => (error ? reject(error) : resolve(res)));
        });
        return {
          rows: result.rows as R[],
          rowCount: result.rowCount ?? result.rows.length,
          fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
        } satisfies QueryResult<R>;
      } catch (error) {
        failure = error;
        throw asUnavailable(error);
      } finally {
        release(client, failure);
      }
    },
    async listen(channel, onNotify) {
      const listener = await listenWithReconnect(connectionString, channel, onNotify, log);
      listeners.add(listener);
      return async () => {
        listeners.delete(listener);
        await listener.stop();
      };
    },
    async close() {
      const stopping = [...listeners].map((listener) => listener.stop());
      listeners.clear();
      await Promise.all(stopping);
      await pool.end();
    },
  };
}

/**
 * LISTEN on a connection of its own, reconnected with backoff when the server goes away. A
 * reconnect calls `onNotify('')`: notifications sent while it was away are lost, so the
 * subscriber rereads what it caches.
 */
async function listenWithReconnect(
  connectionString: string,
  channel: string,
  onNotify: (payload: string) => void,
  log: PgLog,
): Promise<{ stop(): Promise<void> }> {
  let client: pg.Client | undefined;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let delay = LISTEN_RETRY_MS.first;

  async function open(): Promise<void> {
    const next = new pg.Client({ connectionString });
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload ?? '');
    });
    next.on('error', (error) => {
      log.warn('postgres listener connection lost', { channel, error: error.message });
      lost(next);
    });
    next.on('end', () => lost(next));
    try {
      await next.connect();
      await next.query(`listen ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      await next.end().catch(() => undefined);
      throw asUnavailable(error);
    }
    client = next;
  }

  function lost(which: pg.Client) {
    if (stopped || client !== which) return;
    client = undefined;
    scheduleReconnect();
  }

  function scheduleReconnect() {
    if (stopped || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      open().then(
        () => {
          delay = LISTEN_RETRY_MS.first;
          onNotify('');
        },
        () => {
          delay = Math.min(delay * 2, LISTEN_RETRY_MS.max);
          scheduleReconnect();
        },
      );
    }, delay);
    retryTimer.unref();
  }

  await open();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      await client?.end().catch(() => undefined);
    },
  };
}
