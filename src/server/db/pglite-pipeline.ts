/**
 * One call into PGlite for a statement under request claims: the claims statement and the
 * statement itself as extended-protocol messages before a single Sync, the same pipelining
 * `pg-pipeline.ts` does on PostgreSQL. Everything before the Sync is one implicit
 * transaction, so `set_config(…, is_local => true)` lasts exactly for the statement and an
 * error rolls both back. Through `transaction()` the same request costs BEGIN, COMMIT and six
 * protocol calls per statement (parse, describe, bind, describe, execute, sync), each a trip
 * into the WebAssembly engine on the Node thread.
 *
 * WORKAROUND(pglite-pipelining): PGlite has no pipelining API. This holds its transaction lock
 * (`_runExclusiveTransaction`) and query lock (`runExclusive`) exactly as its own `query()`
 * does, so the messages never land inside another caller's transaction, and parses the
 * answer with its exported `parseResults`.
 */
import { parse, protocol, type PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { claimsStatement } from './claims';
import type { JwtClaims, QueryResult, Row } from './types';

type BackendMessage = Parameters<typeof parse.parseResults>[0][number];

/** Parameters as node-postgres sends them, so both databases see the same text. */
const prepareValue = (pg as unknown as { utils: { prepareValue(value: unknown): unknown } }).utils
  .prepareValue;

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export async function pgliteQueryAsRole<R extends Row>(
  db: PGlite,
  claims: JwtClaims,
  sql: string,
  params: readonly unknown[],
  searchPath?: string,
): Promise<QueryResult<R>> {
  const setup = claimsStatement(claims, searchPath);
  const { serialize } = protocol;
  const message = concat([
    serialize.parse({ text: setup.text }),
    serialize.bind({ values: setup.values }),
    serialize.execute({}),
    serialize.parse({ text: sql }),
    serialize.bind({ values: params.map((value) => prepareValue(value) as string | null) }),
    serialize.describe({ type: 'P' }),
    serialize.execute({}),
    serialize.sync(),
  ]);
  await db._checkReady();
  // An error answer is thrown as PGlite's DatabaseError, as from `query()`; the Sync in the
  // same call has already returned the session to idle.
  const { messages } = await db._runExclusiveTransaction(() =>
    db.runExclusive(() => db.execProtocol(message)),
  );
  // The claims statement's answer ends at its CommandComplete; the rest is the statement's.
  const setupEnd = messages.findIndex((m: BackendMessage) => m.name === 'commandComplete');
  const [result] = parse.parseResults(messages.slice(setupEnd + 1), db.parsers);
  if (!result) throw new Error('PGlite returned no result for the statement');
  const rows = result.rows as R[];
  return {
    rows,
    rowCount: result.affectedRows || rows.length,
    fields: result.fields,
  };
}
