/**
 * Realtime Authorization for private channels: the policies on `realtime.messages` decide,
 * checked as the subscriber (its role and claims, `realtime.topic()` = the channel's name).
 * - read: the server inserts one probe row per extension, switches to the subscriber and
 *   selects them back; the rows it can see are the extensions it may receive.
 * - write: as the subscriber, insert a row for the extension; allowed if RLS lets it in.
 * Every probe runs in a transaction that is rolled back, so nothing is ever stored.
 */
import { randomUUID } from 'node:crypto';
import { applyClaims } from '../db/claims';
import type { Database, JwtClaims, Queryable } from '../db/types';

export type RealtimeExtension = 'broadcast' | 'presence';

export interface ReadPolicies {
  broadcast: boolean;
  presence: boolean;
}

/** Thrown inside a probe transaction to roll it back with its answer. */
class Rollback<T> extends Error {
  constructor(public readonly value: T) {
    super('rollback');
  }
}

/** RLS refusals (`insufficient_privilege`) answer "no"; any other error is a real failure. */
function isRefusal(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '42501';
}

async function asSubscriber(tx: Queryable, claims: JwtClaims, topic: string): Promise<void> {
  await applyClaims(tx, claims);
  await tx.query(`select set_config('realtime.topic', $1, true)`, [topic]);
}

async function probe<T>(db: Database, work: (tx: Queryable) => Promise<T>): Promise<T> {
  try {
    await db.transaction(async (tx) => {
      throw new Rollback(await work(tx));
    });
  } catch (error) {
    if (error instanceof Rollback) return error.value as T;
    throw error;
  }
  throw new Error('unreachable: a probe always rolls back');
}

export function createChannelAuthorizer(db: Database) {
  return {
    /** What the subscriber may receive on the private channel `topic` (its name, no prefix). */
    async readPolicies(claims: JwtClaims, topic: string): Promise<ReadPolicies> {
      const ids = { broadcast: randomUUID(), presence: randomUUID() };
      try {
        return await probe(db, async (tx) => {
          await tx.query(
            `insert into realtime.messages (id, topic, extension) values ($1, $3, 'broadcast'), ($2, $3, 'presence')`,
            [ids.broadcast, ids.presence, topic],
          );
          await asSubscriber(tx, claims, topic);
          const { rows } = await tx.query<{ id: string }>(
            'select id::text from realtime.messages where id = any($1::uuid[])',
            [[ids.broadcast, ids.presence]],
          );
          const visible = new Set(rows.map((row) => row.id));
          return { broadcast: visible.has(ids.broadcast), presence: visible.has(ids.presence) };
        });
      } catch (error) {
        if (isRefusal(error)) return { broadcast: false, presence: false };
        throw error;
      }
    },

    /** Whether the subscriber may send `extension` messages on the private channel `topic`. */
    async canWrite(claims: JwtClaims, topic: string, extension: RealtimeExtension) {
      try {
        return await probe(db, async (tx) => {
          await asSubscriber(tx, claims, topic);
          await tx.query('insert into realtime.messages (topic, extension) values ($1, $2)', [
            topic,
            extension,
          ]);
          return true;
        });
      } catch (error) {
        if (isRefusal(error)) return false;
        throw error;
      }
    },
  };
}

export type ChannelAuthorizer = ReturnType<typeof createChannelAuthorizer>;
