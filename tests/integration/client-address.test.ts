/**
 * Per-address limits (data-room PIN, sign-in) count each client apart, and TRUST_PROXY decides
 * whether X-Forwarded-For names the client: off (the default), a forged header changes
 * nothing; on, the address the proxy appended counts, and entries written before it do not.
 * Clients are told apart by the loopback address their connections leave from.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchFrom } from '../support/fetch-from';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';

const PIN = 'address-pin-42';
const WRONG_PIN_LIMIT = 5;

function client(server: TestServer, localAddress: string) {
  const send = fetchFrom(localAddress);
  const post = async (path: string, body: unknown, forwardedFor?: string) => {
    const response = await send(`${server.url}${path}`, {
      method: 'POST',
      headers: {
        apikey: server.anonKey,
        'content-type': 'application/json',
        ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
      },
      body: JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };
  return {
    pin: (pin: string, forwardedFor?: string) =>
      post('/functions/v1/data-room-access', { pin }, forwardedFor),
    signIn: (forwardedFor?: string) =>
      post(
        '/auth/v1/token?grant_type=password',
        { email: 'nobody@example.com', password: 'not the password' },
        forwardedFor,
      ),
  };
}

/** Spends an address's wrong-PIN allowance, in parallel as an attacker would. */
async function exhaustPins(attempt: () => Promise<{ status: number }>) {
  const answers = await Promise.all(Array.from({ length: WRONG_PIN_LIMIT }, attempt));
  expect(answers.map((a) => a.status)).toEqual(Array(WRONG_PIN_LIMIT).fill(401));
}

describe.each(databaseKinds)('client addresses on %s', (kind) => {
  describe('with TRUST_PROXY off (the default)', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(kind, { DATA_ROOM_PIN: PIN, AUTH_RATE_LIMIT_SIGN_IN: '2' });
    });
    afterAll(() => server?.stop());

    it('limits wrong PINs per address, and a forged X-Forwarded-For does not reset it', async () => {
      const mallory = client(server, '127.0.0.2');
      const alice = client(server, '127.0.0.3');
      await exhaustPins(() => mallory.pin('guess'));
      expect((await mallory.pin('guess')).status).toBe(429);
      const spoofed = await mallory.pin(PIN, '203.0.113.7');
      expect(spoofed.status).toBe(429);
      expect(spoofed.json.code).toBe('rate_limited');

      expect((await alice.pin('typo')).status).toBe(401);
      expect((await alice.pin(PIN)).status).toBe(200);
    });

    it('limits sign-ins per address, and a forged X-Forwarded-For does not reset it', async () => {
      const mallory = client(server, '127.0.0.4');
      const alice = client(server, '127.0.0.5');
      for (let i = 0; i < 2; i++)
        expect((await mallory.signIn()).json.code).toBe('invalid_credentials');
      expect((await mallory.signIn()).status).toBe(429);
      const spoofed = await mallory.signIn('203.0.113.8');
      expect(spoofed.status).toBe(429);
      expect(spoofed.json.code).toBe('over_request_rate_limit');

      expect((await alice.signIn()).json.code).toBe('invalid_credentials');
    });
  });

  describe('with TRUST_PROXY=1 (one reverse proxy in front)', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(kind, {
        DATA_ROOM_PIN: PIN,
        AUTH_RATE_LIMIT_SIGN_IN: '2',
        TRUST_PROXY: 'true',
      });
    });
    afterAll(() => server?.stop());

    it('counts wrong PINs per forwarded address, believing only the entry the proxy added', async () => {
      // Every request comes through the same "proxy" at 127.0.0.2.
      const proxy = client(server, '127.0.0.2');
      await exhaustPins(() => proxy.pin('guess', '198.51.100.1'));
      expect((await proxy.pin(PIN, '198.51.100.1')).status).toBe(429);
      // The client may write entries of its own; the proxy appends the real one last.
      expect((await proxy.pin(PIN, '198.51.100.99, 198.51.100.1')).status).toBe(429);

      const other = await proxy.pin(PIN, '198.51.100.2');
      expect(other.status).toBe(200);
    });

    it('counts sign-ins per forwarded address', async () => {
      const proxy = client(server, '127.0.0.3');
      for (let i = 0; i < 2; i++)
        expect((await proxy.signIn('198.51.100.5')).json.code).toBe('invalid_credentials');
      expect((await proxy.signIn('198.51.100.5')).status).toBe(429);
      expect((await proxy.signIn('10.0.0.1, 198.51.100.5')).status).toBe(429);
      expect((await proxy.signIn('198.51.100.6')).json.code).toBe('invalid_credentials');
      // A proxy request without the header counts as the proxy itself.
      expect((await proxy.signIn()).json.code).toBe('invalid_credentials');
    });
  });
});
