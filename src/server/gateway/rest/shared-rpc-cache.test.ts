import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { DbRole } from '../../db/types';
import type { ApiEnv } from '../context';
import { sharedRpcCache } from './shared-rpc-cache';

/** A stand-in RPC route that counts its calls; `answer` decides each reply. */
function setup(answer: (call: number) => Response = (call) => Response.json({ call })) {
  let clock = 1_000_000;
  let calls = 0;
  let release: (() => void) | undefined;
  let gate: Promise<void> | undefined;
  const app = new Hono<ApiEnv>();
  app.use('*', async (c, next) => {
    c.set('role', (c.req.header('x-role') ?? 'anon') as DbRole);
    await next();
  });
  app.use('/rpc/:fn', sharedRpcCache({ functions: ['metrics'], maxAgeMs: 1000, now: () => clock }));
  app.on(['GET', 'POST'], '/rpc/:fn', async (c) => {
    calls += 1;
    const call = calls;
    await gate;
    // The handler must still be able to read the body the cache looked at.
    if (c.req.method === 'POST') await c.req.text();
    return answer(call);
  });
  return {
    request: (path = '/rpc/metrics', init: RequestInit = { method: 'POST', body: '{}' }) =>
      app.request(path, init),
    get calls() {
      return calls;
    },
    advance(ms: number) {
      clock += ms;
    },
    hold() {
      gate = new Promise((resolve) => (release = resolve));
    },
    letGo() {
      gate = undefined;
      release?.();
    },
  };
}

describe('shared RPC cache', () => {
  it('answers concurrent plain calls from one call in flight, with the same status, headers and body', async () => {
    const rpc = setup(
      (call) =>
        new Response(JSON.stringify({ call }), {
          headers: { 'Content-Type': 'application/json; charset=utf-8', 'Content-Range': '0-0/*' },
        }),
    );
    rpc.hold();
    const pending = Array.from({ length: 100 }, () => rpc.request());
    rpc.letGo();
    const responses = await Promise.all(pending);
    expect(rpc.calls).toBe(1);
    for (const response of responses) {
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('content-range')).toBe('0-0/*');
      expect(await response.json()).toEqual({ call: 1 });
    }
  });

  it('serves an answer for less than maxAgeMs, then asks again', async () => {
    const rpc = setup();
    expect(await (await rpc.request()).json()).toEqual({ call: 1 });
    rpc.advance(999);
    expect(await (await rpc.request()).json()).toEqual({ call: 1 });
    rpc.advance(1);
    expect(await (await rpc.request()).json()).toEqual({ call: 2 });
    expect(rpc.calls).toBe(2);
  });

  it('keeps one entry per role', async () => {
    const rpc = setup();
    await rpc.request();
    const asUser = await rpc.request('/rpc/metrics', {
      method: 'POST',
      body: '',
      headers: { 'x-role': 'authenticated' },
    });
    expect(await asUser.json()).toEqual({ call: 2 });
    expect(await (await rpc.request()).json()).toEqual({ call: 1 });
  });

  it('passes through anything but the plain call of a listed function', async () => {
    const rpc = setup();
    await rpc.request();
    const variants: [string, RequestInit][] = [
      ['/rpc/metrics?select=totals', { method: 'POST', body: '{}' }],
      ['/rpc/metrics', { method: 'POST', body: '{"window": 1}' }],
      ['/rpc/metrics', { method: 'POST', body: '{}', headers: { prefer: 'count=exact' } }],
      ['/rpc/metrics', { method: 'POST', body: '{}', headers: { range: '0-1' } }],
      [
        '/rpc/metrics',
        { method: 'POST', body: '{}', headers: { accept: 'application/vnd.pgrst.object+json' } },
      ],
      ['/rpc/metrics', { method: 'POST', body: '{}', headers: { 'cache-control': 'no-cache' } }],
      ['/rpc/other', { method: 'POST', body: '{}' }],
    ];
    for (const [path, init] of variants) await rpc.request(path, init);
    expect(rpc.calls).toBe(1 + variants.length);
  });

  it('shares a failure with the requests that waited for it, but never keeps it', async () => {
    const rpc = setup((call) =>
      call === 1
        ? Response.json({ message: 'unavailable' }, { status: 503 })
        : Response.json({ call }),
    );
    rpc.hold();
    const first = rpc.request();
    const second = rpc.request();
    rpc.letGo();
    expect((await first).status).toBe(503);
    expect((await second).status).toBe(503);
    expect(await (await rpc.request()).json()).toEqual({ call: 2 });
    expect(await (await rpc.request()).json()).toEqual({ call: 2 });
    expect(rpc.calls).toBe(2);
  });
});
