/**
 * Response compression (gzip/deflate, whatever the client accepts) for compressible types.
 *
 * Why not `hono/compress`: it marks every compressible response with `Vary` through
 * `c.header()` after the handler has answered, and Hono then rebuilds the response around a
 * body stream. On @hono/node-server that turns the cheap string response into a web stream
 * even when nothing gets compressed; in the REST benchmark that cost more than the REST layer
 * itself (decision 0012). Here headers are changed on the response in place and a new
 * response is made only when its body really is compressed.
 */
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/compress';
import { createMiddleware } from 'hono/factory';
import { setResponseHeader } from './response-headers';

/** Bodies declared smaller than this are sent as they are: gzip would not pay for itself. */
const THRESHOLD_BYTES = 1024;
const ENCODINGS = ['gzip', 'deflate'] as const;
type Encoding = (typeof ENCODINGS)[number];

function acceptedEncoding(header: string | undefined): Encoding | undefined {
  if (!header) return undefined;
  const offered = new Set<string>();
  const refused = new Set<string>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim());
    const q = parameters.find((p) => p.startsWith('q='));
    (q !== undefined && Number(q.slice(2)) === 0 ? refused : offered).add(name);
  }
  return ENCODINGS.find(
    (encoding) => !refused.has(encoding) && (offered.has(encoding) || offered.has('*')),
  );
}

export function compression() {
  return createMiddleware(async (c, next) => {
    await next();
    const { headers, status } = c.res;
    if (
      c.req.method === 'HEAD' ||
      status === 204 ||
      status === 206 ||
      status === 304 ||
      headers.has('Content-Encoding') ||
      headers.has('Transfer-Encoding')
    )
      return;
    const type = headers.get('Content-Type');
    if (!type || !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type)) return;
    if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(headers.get('Cache-Control') ?? '')) return;
    const length = headers.get('Content-Length');
    if (length !== null && Number(length) < THRESHOLD_BYTES) return;

    const vary = headers.get('Vary');
    if (vary !== '*' && !/accept-encoding/i.test(vary ?? ''))
      setResponseHeader(c, 'Vary', 'Accept-Encoding', 'append');
    const encoding = acceptedEncoding(c.req.header('Accept-Encoding'));
    if (!encoding) return;
    // Reading `body` turns a lightweight response into a stream: only now that it is needed.
    const body = c.res.body;
    if (!body) return;
    // Hono copies the old response's headers onto the one assigned: fix them up afterwards.
    c.res = new Response(body.pipeThrough(new CompressionStream(encoding)), c.res);
    const compressed = c.res.headers;
    compressed.delete('Content-Length');
    compressed.set('Content-Encoding', encoding);
    const etag = compressed.get('ETag');
    if (etag && !etag.startsWith('W/')) compressed.set('ETag', `W/${etag}`);
  });
}
