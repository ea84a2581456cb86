/**
 * How REST bodies go on the wire: every body sent whole declares its length, and every error is
 * written once, here, as PostgREST writes it (`errorResponseFor` in its `Error.hs`).
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { RestError } from './errors';

/**
 * The headers of a body with its length declared, in bytes: the gateway's compression
 * middleware sends a body under its threshold as it is only when it knows the length
 * (decision 0048). Only for a body sent whole; a HEAD or 204 answer declares none.
 */
export function sized(body: string, headers: Record<string, string>): Record<string, string> {
  headers['Content-Length'] = String(Buffer.byteLength(body));
  return headers;
}

/**
 * A PostgREST error answer: its JSON with `charset=utf-8`, its length, and `Proxy-Status`
 * naming the code (PostgREST 13). `headers` add to these (a 416's `Content-Range`, a cut-off
 * upload's `Connection: close`).
 */
export function errorResponse(
  c: Context,
  error: RestError,
  headers: Record<string, string> = {},
): Response {
  const body = JSON.stringify(error.toBody());
  return c.body(
    body,
    error.status as ContentfulStatusCode,
    sized(body, {
      ...headers,
      'Content-Type': 'application/json; charset=utf-8',
      'Proxy-Status': `PostgREST; error=${error.code}`,
    }),
  );
}
