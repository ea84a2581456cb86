import { Hono } from 'hono';
import type { GatewayDeps } from './context';

/** Liveness with a real database round trip. */
export function healthRoutes({ db, version }: Pick<GatewayDeps, 'db' | 'version'>) {
  return new Hono().get('/', async (c) => {
    try {
      await db.query('select 1 as ok');
      return c.json({ status: 'ok', database: db.kind, version });
    } catch (error) {
      return c.json(
        { status: 'error', database: db.kind, version, message: (error as Error).message },
        503,
      );
    }
  });
}
