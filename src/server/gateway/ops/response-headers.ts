import type { Context } from 'hono';

/**
 * Sets a response header in place; a response whose headers are immutable (one passed through
 * from `fetch`) is copied first.
 */
export function setResponseHeader(
  c: Context,
  name: string,
  value: string,
  mode: 'set' | 'append' = 'set',
) {
  try {
    c.res.headers[mode](name, value);
  } catch {
    c.res = new Response(c.res.body, c.res);
    c.res.headers[mode](name, value);
  }
}
