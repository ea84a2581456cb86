import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import type { Database } from '../../db/types';
import { createLogger } from '../../logger';
import { isLoopback, mailboxRoutes } from './mailbox';

const emptyMailbox = { query: async () => ({ rows: [] }) } as unknown as Database;
const quiet = createLogger('silent');

/** A request as @hono/node-server hands it over, from a given TCP peer. */
function fromPeer(app: ReturnType<typeof mailboxRoutes>, address: string, path = '/messages.json') {
  return app.request(path, {}, { incoming: { socket: { remoteAddress: address } } });
}

describe('dev mailbox', () => {
  it('answers loopback peers and refuses every other machine', async () => {
    const app = mailboxRoutes(emptyMailbox, { host: '127.0.0.1', trustedProxies: 0 }, quiet);
    for (const local of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      expect((await fromPeer(app, local)).status, local).toBe(200);
    }
    for (const remote of ['192.0.2.7', '::ffff:192.0.2.7', '2001:db8::1', '10.0.0.1']) {
      const response = await fromPeer(app, remote, '/');
      expect(response.status, remote).toBe(403);
      expect(await response.json()).toMatchObject({
        message: expect.stringMatching(/only requests from this machine/),
      });
    }
  });

  it('recognises loopback addresses and host names', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost'].map(isLoopback)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['0.0.0.0', '::', '192.0.2.2', 'unknown', '128.0.0.1'].map(isLoopback)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('warns at start-up when other machines can reach the server', () => {
    const lines: string[] = [];
    const log = createLogger('warn', (line) => lines.push(line));
    mailboxRoutes(emptyMailbox, { host: '127.0.0.1', trustedProxies: 0 }, log);
    expect(lines).toEqual([]);
    mailboxRoutes(emptyMailbox, { host: '0.0.0.0', trustedProxies: 0 }, log);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 'warn',
      msg: expect.stringMatching(/HOST=0\.0\.0\.0 lets other machines reach this server/),
    });
  });

  it('listens on loopback by default outside production', () => {
    expect(loadConfig({}, { NODE_ENV: 'development' }).host).toBe('127.0.0.1');
    expect(loadConfig({}, { NODE_ENV: 'test' }).host).toBe('127.0.0.1');
    expect(loadConfig({}, { NODE_ENV: 'production' }).host).toBe('0.0.0.0');
    expect(loadConfig({}, { NODE_ENV: 'development', HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });
});
