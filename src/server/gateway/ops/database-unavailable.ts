/**
 * Answers 503 with a clear message, in place of a service's generic 500, when a request
 * failed because the database connection did (see `DatabaseUnavailableError`). Each service
 * keeps its own error handler; Hono records the error it handled in `c.error`, so one
 * middleware in front of all of them can tell. REST answers its PostgREST-shaped 503 itself.
 */
import type { MiddlewareHandler } from 'hono';
import { DatabaseUnavailableError } from '../../db/errors';

/** Seconds a client should wait before trying again (supabase-js honours it on GET retries). */
const RETRY_AFTER_SECONDS = '1';

export function databaseUnavailable(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (!(c.error instanceof DatabaseUnavailableError) || c.res.status === 503) return;
    // Hono carries the 500's other headers (CORS among them) over to the new answer.
    c.res = new Response(
      JSON.stringify({ code: 'database_unavailable', message: c.error.message }),
      {
        status: 503,
        headers: { 'Content-Type': 'application/json', 'Retry-After': RETRY_AFTER_SECONDS },
      },
    );
    c.res.headers.delete('Content-Length');
  };
}
