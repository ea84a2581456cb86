import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compression } from './ops/compression';
import { webRoutes } from './web';

const script = `export const greeting = ${JSON.stringify('hello '.repeat(400))};\n`;
let distDir: string;

beforeAll(() => {
  distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-web-'));
  fs.mkdirSync(path.join(distDir, 'assets'));
  fs.writeFileSync(path.join(distDir, 'assets', 'page-abc123.js'), script);
  fs.writeFileSync(path.join(distDir, 'assets', 'page-abc123.js.gz'), gzipSync(script));
  fs.writeFileSync(path.join(distDir, 'assets', 'plain-def456.js'), script);
});

afterAll(() => fs.rmSync(distDir, { recursive: true, force: true }));

function app() {
  const hono = new Hono();
  hono.use('*', compression());
  hono.route('/', webRoutes(distDir));
  return hono;
}

describe('hashed assets', () => {
  it('sends the build’s gzip copy to a client that accepts gzip', async () => {
    const res = await app().request('/assets/page-abc123.js', {
      headers: { 'Accept-Encoding': 'gzip, deflate, br' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Encoding')).toBe('gzip');
    expect(res.headers.get('Vary')).toMatch(/accept-encoding/i);
    expect(res.headers.get('Content-Type')).toMatch(/javascript/);
    // The copy's own length: a body compressed on the fly has none.
    const copy = fs.readFileSync(path.join(distDir, 'assets', 'page-abc123.js.gz'));
    expect(res.headers.get('Content-Length')).toBe(String(copy.length));
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.equals(copy)).toBe(true);
  });

  it('sends the file itself to a client that does not accept gzip', async () => {
    const res = await app().request('/assets/page-abc123.js');
    expect(res.headers.get('Content-Encoding')).toBeNull();
    expect(await res.text()).toBe(script);
  });

  it('still compresses an asset the build left without a copy', async () => {
    const res = await app().request('/assets/plain-def456.js', {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(res.headers.get('Content-Encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(script);
  });
});
