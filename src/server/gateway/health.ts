import { Hono } from 'hono';
import { DatabaseUnavailableError } from '../db/errors';
import type { GatewayDeps } from './context';

/** A database that has not answered by then is reported down rather than left hanging. */
const HEALTH_TIMEOUT_MS = 5_000;

/**
 * Liveness with a real database round trip: 200 when the database answers, 503 with
 * `database_status: "down"` while it does not (the process stays up and recovers on its own).
 */
export function healthRoutes({ db, version, log }: Pick<GatewayDeps, 'db' | 'version' | 'log'>) {
  return new Hono().get('/', async (c) => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        db.query('select 1 as ok'),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new DatabaseUnavailableError(new Error('health check timed out'))),
            HEALTH_TIMEOUT_MS,
          );
        }),
      ]);
      return c.json({ status: 'ok', database: db.kind, database_status: 'up', version });
    } catch (error) {
      const unavailable = error instanceof DatabaseUnavailableError;
      if (unavailable) log.warn('health: database unavailable', { error: error.reason });
      return c.json(
        {
          status: 'error',
          database: db.kind,
          database_status: unavailable ? 'down' : 'error',
          version,
          message: (error as Error).message,
        },
        503,
      );
    } finally {
      clearTimeout(timer);
    }
  });
}
