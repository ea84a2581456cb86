import { gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { compression } from './compression';
import { apiCors, corsExposeHeaders } from './cors';

const big = JSON.stringify(Array.from({ length: 200 }, (_, id) => ({ id, name: `item ${id}` })));

function app() {
  const hono = new Hono();
  hono.use('*', compression());
  hono.use('/api/*', apiCors());
  hono.get('/api/json', (c) => c.body(big, 200, { 'Content-Type': 'application/json' }));
  hono.get('/api/small', (c) =>
    c.body('{"ok":true}', 200, { 'Content-Type': 'application/json', 'Content-Length': '11' }),
  );
  hono.get('/api/file', (c) =>
    c.body(big, 200, {
      'Content-Type': 'text/markdown',
      'Content-Length': String(Buffer.byteLength(big)),
      ETag: '"v1"',
    }),
  );
  hono.get('/api/png', (c) => c.body(new Uint8Array(4096), 200, { 'Content-Type': 'image/png' }));
  hono.get('/api/no-transform', (c) =>
    c.body(big, 200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-transform' }),
  );
  // Response.redirect has immutable headers, like a response passed through from fetch.
  hono.get('/api/redirect', () => Response.redirect('http://localhost/elsewhere', 302));
  hono.get('/api/throws', () => {
    throw new Error('boom');
  });
  hono.onError((_error, c) => c.json({ message: 'Internal server error' }, 500));
  return hono;
}

describe('compression', () => {
  it('gzips a compressible body for a client that accepts gzip, and says so', async () => {
    const res = await app().request('/api/json', { headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(res.headers.get('Content-Encoding')).toBe('gzip');
    expect(res.headers.get('Vary')).toMatch(/Accept-Encoding/);
    expect(res.headers.get('Content-Length')).toBeNull();
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(gunzipSync(bytes).toString()).toBe(big);
  });

  it('drops the length and weakens the ETag of a body it compresses', async () => {
    const res = await app().request('/api/file', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.headers.get('Content-Encoding')).toBe('gzip');
    expect(res.headers.get('Content-Length')).toBeNull();
    expect(res.headers.get('ETag')).toBe('W/"v1"');
    expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(big);
  });

  it('sends the body as it is to a client that accepts no encoding, still marking Vary', async () => {
    const res = await app().request('/api/json');
    expect(res.headers.get('Content-Encoding')).toBeNull();
    expect(res.headers.get('Vary')).toBe('Accept-Encoding');
    expect(await res.text()).toBe(big);
  });

  it('honours q=0 and falls back to deflate', async () => {
    const refused = await app().request('/api/json', {
      headers: { 'Accept-Encoding': 'gzip;q=0' },
    });
    expect(refused.headers.get('Content-Encoding')).toBeNull();
    const deflate = await app().request('/api/json', {
      headers: { 'Accept-Encoding': 'gzip;q=0, deflate' },
    });
    expect(deflate.headers.get('Content-Encoding')).toBe('deflate');
    const anyButGzip = await app().request('/api/json', {
      headers: { 'Accept-Encoding': 'gzip;q=0, *' },
    });
    expect(anyButGzip.headers.get('Content-Encoding')).toBe('deflate');
    const none = await app().request('/api/json', { headers: { 'Accept-Encoding': 'identity' } });
    expect(none.headers.get('Content-Encoding')).toBeNull();
  });

  it('leaves small, binary, no-transform and HEAD responses alone', async () => {
    const gzip = { headers: { 'Accept-Encoding': 'gzip' } };
    for (const path of ['/api/small', '/api/png', '/api/no-transform']) {
      const res = await app().request(path, gzip);
      expect(res.headers.get('Content-Encoding'), path).toBeNull();
    }
    const head = await app().request('/api/json', { ...gzip, method: 'HEAD' });
    expect(head.headers.get('Content-Encoding')).toBeNull();
  });
});

describe('API CORS', () => {
  it('answers a preflight with the allowed methods and headers', async () => {
    const res = await app().request('/api/json', {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'PATCH' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(res.headers.get('Access-Control-Allow-Methods')).toContain('PATCH');
    expect(res.headers.get('Access-Control-Allow-Headers')).toContain('apikey');
    expect(res.headers.get('Access-Control-Max-Age')).toBe('86400');
  });

  it('marks answers, error answers and immutable responses as readable cross-origin', async () => {
    for (const path of ['/api/json', '/api/throws', '/api/redirect']) {
      const res = await app().request(path, { headers: { Origin: 'https://app.example' } });
      expect(res.headers.get('Access-Control-Allow-Origin'), path).toBe('*');
      expect(res.headers.get('Access-Control-Expose-Headers'), path).toBe(
        corsExposeHeaders.join(','),
      );
    }
    const redirect = await app().request('/api/redirect');
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('Location')).toBe('http://localhost/elsewhere');
  });
});
