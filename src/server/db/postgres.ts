import { hash } from 'node:crypto';
import pg from 'pg';
import { applyClaims, claimsStatement } from './claims';
import { QueryAfterSetup } from './pg-pipeline';
import type { Database, JwtClaims, QueryResult, Queryable, Row } from './types';

const INT8 = 20;

/**
 * Statements `queryAsRole` may keep prepared on each connection. Callers with open-ended SQL
 * (REST requests of any shape) get named statements only up to this many distinct texts.
 */
const MAX_PREPARED = 500;

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
      const result = await client.query({ text: sql, values: [...params], types: typeParsers });
      return {
        rows: result.rows as R[],
        rowCount: result.rowCount ?? result.rows.length,
        fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
      } satisfies QueryResult<R>;
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  };
}

export async function openPostgres(connectionString: string, poolSize: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  // A pool error (server restart, idle client killed) must not crash the process.
  pool.on('error', (error) => console.error(`postgres pool error: ${error.message}`));
  await pool.query('select 1');
  const root = wrap(pool);
  const listeners: pg.Client[] = [];
  /** Statement text → the name it is prepared under on every connection that has run it. */
  const preparedNames = new Map<string, string>();

  async function transaction<T>(fn: (tx: Queryable) => Promise<T>, claims?: JwtClaims) {
    const client = await pool.connect();
    try {
      await client.query('begin');
      const tx = wrap(client);
      if (claims) await applyClaims(tx, claims);
      const result = await fn(tx);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  return {
    kind: 'postgres',
    query: root.query,
    exec: root.exec,
    transaction: (fn) => transaction(fn),
    asRole: (claims, fn) => transaction(fn, claims),
    async queryAsRole<R extends Row = Row>(
      claims: JwtClaims,
      sql: string,
      params: readonly unknown[] = [],
      options: { prepare?: boolean } = {},
    ) {
      const setup = { name: 'lyceum_claims', ...claimsStatement(claims) };
      let name: string | undefined;
      if (options.prepare) {
        name = preparedNames.get(sql);
        if (name === undefined && preparedNames.size < MAX_PREPARED) {
          name = `lyceum_${hash('sha1', sql, 'hex').slice(0, 24)}`;
          preparedNames.set(sql, name);
        }
      }
      const client = await pool.connect();
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
      } finally {
        client.release();
      }
    },
    async listen(channel, onNotify) {
      const client = new pg.Client({ connectionString });
      await client.connect();
      client.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      });
      client.on('error', (error) => console.error(`postgres listener error: ${error.message}`));
      await client.query(`listen ${pg.escapeIdentifier(channel)}`);
      listeners.push(client);
      return async () => {
        listeners.splice(listeners.indexOf(client), 1);
        await client.end();
      };
    },
    async close() {
      await Promise.all(listeners.splice(0).map((client) => client.end().catch(() => undefined)));
      await pool.end();
    },
  };
}
