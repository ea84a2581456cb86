/**
 * A short shared cache in front of RPCs whose answer is the same for every caller of a role,
 * such as `get_public_platform_metrics`, which every home-page visitor polls every 5 s: one
 * database call per role and `maxAgeMs` per process, however many visitors ask (concurrent
 * misses wait for the one call in flight instead of each making their own).
 *
 * Only the plain call is cached: POST with no body or `{}`, or GET, with no query string and
 * no header that changes the answer (Prefer, Range, a non-JSON Accept) or asks for a fresh one
 * (`Cache-Control: no-cache`). The schema a profile names is part of an entry's key: supabase-js
 * names `public` on every call, and another schema may have a function of the same name.
 * Anything else, and any answer but a 200, goes to the database as usual. The cached answer is replayed exactly:
 * status, headers and body bytes. Entries are per role, so a grant that differs by role still
 * holds; a function listed here must not depend on anything else about the caller.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { ApiEnv } from '../context';

interface Entry {
  /** When the call that produced it started: its data is at least this fresh. */
  readAt: number;
  status: number;
  headers: Record<string, string>;
  /** Text, not bytes: @hono/node-server writes a string body without a stream (decision 0012). */
  body: string;
}

const plainAccept = new Set(['', '*/*', 'application/json']);

async function isPlainCall(c: Context<ApiEnv>): Promise<boolean> {
  const method = c.req.method;
  if (method !== 'POST' && method !== 'GET') return false;
  if (new URL(c.req.url).search !== '') return false;
  if (c.req.header('prefer') !== undefined || c.req.header('range') !== undefined) return false;
  if (!plainAccept.has((c.req.header('accept') ?? '').trim().toLowerCase())) return false;
  // A client that must see the current figures says so, as it would to any HTTP cache.
  if (/no-cache|no-store/i.test(c.req.header('cache-control') ?? '')) return false;
  if (method === 'GET') return true;
  // The REST service has read the body within its limit (rest-service.ts); this reads it back.
  const body = (await c.req.text()).trim();
  return body === '' || /^\{\s*\}$/.test(body);
}

function replay(entry: Entry): Response {
  return new Response(entry.body, {
    status: entry.status,
    headers: entry.headers,
  });
}

export function sharedRpcCache(options: {
  functions: readonly string[];
  maxAgeMs: number;
  now?: () => number;
}): MiddlewareHandler<ApiEnv> {
  const now = options.now ?? Date.now;
  const cached = new Map<string, Entry>();
  const inFlight = new Map<string, Promise<Entry | undefined>>();

  return async (c, next) => {
    const fn = c.req.param('fn');
    if (!fn || !options.functions.includes(fn) || !(await isPlainCall(c))) return next();
    const profile = c.req.header(c.req.method === 'POST' ? 'content-profile' : 'accept-profile');
    const key = `${c.get('role')}:${profile ?? ''}:${c.req.method}:${fn}`;

    const entry = cached.get(key);
    if (entry && now() - entry.readAt < options.maxAgeMs) return replay(entry);
    const pending = inFlight.get(key);
    if (pending) {
      const shared = await pending;
      return shared ? replay(shared) : next();
    }

    const readAt = now();
    let settle: (entry: Entry | undefined) => void = () => undefined;
    inFlight.set(key, new Promise((resolve) => (settle = resolve)));
    let answer: Entry | undefined;
    try {
      await next();
      const response = c.res;
      answer = {
        readAt,
        status: response.status,
        headers: Object.fromEntries(response.headers.entries()),
        body: await response.text(),
      };
      // Requests that waited for this call share its answer, whatever it was (they would have
      // met the same failure); only a success is kept for later ones.
      if (answer.status === 200) cached.set(key, answer);
      c.res = undefined;
      c.res = replay(answer);
    } finally {
      inFlight.delete(key);
      settle(answer);
    }
  };
}
