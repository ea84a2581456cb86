/**
 * Shares the per-key rate limit between gateway processes on one PostgreSQL database: every
 * `intervalMs` each process adds what it admitted per key (for keys that took a tenth of the
 * limit, or any for a second) to `platform.api_rate_limits` and takes back what is left of
 * every bucket less than half full. Requests never wait on this; a key is over its limit
 * across the cluster by at most what the other processes admit before they hear of each other
 * (decision 0070). One process on PGlite needs none of it: its buckets are exact.
 */
import type { Database } from '../../db/types';
import type { Logger } from '../../logger';
import type { RateLimiter } from './rate-limit';

export const RATE_LIMIT_SYNC_INTERVAL_MS = 100;
/** Full buckets are pruned from the table this often (by each process; the delete is cheap). */
const PRUNE_INTERVAL_MS = 30_000;

/**
 * One exchange with the database; usage that could not be written is kept for the next one.
 * `all` shares every key's usage (on shutdown), not only the keys that are due.
 */
export async function syncRateLimits(
  db: Database,
  limiter: RateLimiter,
  options: { all?: boolean } = {},
): Promise<void> {
  const usage = limiter.takeUsage(options);
  const keys = [...usage.keys()].sort();
  try {
    const { rows } = await db.query<{ key: string; tokens: number }>(
      'select key, tokens from platform.sync_api_rate_limits($1::text[], $2::int[], $3)',
      [keys, keys.map((key) => usage.get(key)!), limiter.limitPerSecond],
    );
    limiter.applyShared(new Map(rows.map((row) => [row.key, Number(row.tokens)])));
  } catch (error) {
    limiter.returnUsage(usage);
    throw error;
  }
}

/** Syncs every `intervalMs` until `stop()`, which shares the last usage before it returns. */
export function startRateLimitSync(
  deps: { db: Database; log: Logger },
  limiter: RateLimiter,
  intervalMs = RATE_LIMIT_SYNC_INTERVAL_MS,
): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  let failing = false;
  let lastPrune = Date.now();
  const sync = (options: { all?: boolean } = {}) => {
    running = running
      .then(async () => {
        await syncRateLimits(deps.db, limiter, options);
        if (Date.now() - lastPrune >= PRUNE_INTERVAL_MS) {
          lastPrune = Date.now();
          await deps.db.query('select platform.prune_api_rate_limits($1)', [
            limiter.limitPerSecond,
          ]);
        }
        if (failing) deps.log.info('rate limit sync recovered');
        failing = false;
      })
      .catch((error: unknown) => {
        // One line per outage, not ten a second: buckets stay local until the database is back.
        if (!failing)
          deps.log.warn('rate limit sync failed; limits are per process until it recovers', {
            error: (error as Error).message,
          });
        failing = true;
      });
    return running;
  };
  // A sync still under way when the next tick comes delays that tick instead of queueing more.
  let pending = false;
  const timer = setInterval(() => {
    if (pending) return;
    pending = true;
    void sync().finally(() => (pending = false));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await sync({ all: true });
    },
  };
}
