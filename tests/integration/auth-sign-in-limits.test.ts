import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { startServer, type RunningServer } from '../../src/server/start';
import {
  databaseKinds,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';
import { browserLikeClient, confirmedUser, uniqueEmail } from './auth-support';

const lockout = { AUTH_PASSWORD_LOCKOUT_ATTEMPTS: '3', AUTH_RATE_LIMIT_SIGN_IN: '1000' };

async function signIn(
  server: Pick<RunningServer, 'url'>,
  anonKey: string,
  email: string,
  password: string,
) {
  const { error } = await testClient(server, anonKey).auth.signInWithPassword({ email, password });
  return error ? { status: error.status, code: error.code, message: error.message } : 'signed in';
}

describe.each(databaseKinds)('failed passwords per account on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, lockout);
  });
  afterAll(() => server?.stop());

  it('locks an address after three wrong passwords, even against the right one, and answers an unknown address alike', async () => {
    const { email, password } = await confirmedUser(server);
    const attempt = (address: string, pw: string) => signIn(server, server.anonKey, address, pw);
    expect(await attempt(email, 'wrong password 1')).toMatchObject({ code: 'invalid_credentials' });
    expect(await attempt(email, 'wrong password 2')).toMatchObject({ code: 'invalid_credentials' });
    const locked = await attempt(email, 'wrong password 3');
    expect(locked).toEqual({
      status: 429,
      code: 'over_request_rate_limit',
      message:
        'Too many wrong passwords for this email address. Try again in 15 minutes, or reset your password.',
    });
    expect(await attempt(email, password)).toEqual(locked);

    const nobody = uniqueEmail('nobody');
    expect(await attempt(nobody, 'wrong password 1')).toMatchObject({
      code: 'invalid_credentials',
    });
    expect(await attempt(nobody, 'wrong password 2')).toMatchObject({
      code: 'invalid_credentials',
    });
    expect(await attempt(nobody, 'wrong password 3')).toEqual(locked);
    expect(await attempt(nobody, 'wrong password 4')).toEqual(locked);

    await server.deps.db.query(
      `update auth.password_failures set locked_until = now() - interval '1 second' where email = $1`,
      [email],
    );
    expect(await attempt(email, password)).toBe('signed in');
  });

  it('counts only failures in a row: a right password starts the count again', async () => {
    const { email, password } = await confirmedUser(server);
    const attempt = (pw: string) => signIn(server, server.anonKey, email, pw);
    for (const pw of ['wrong 1', 'wrong 2', password, 'wrong 3', 'wrong 4', password]) {
      expect(await attempt(pw)).toEqual(
        pw === password ? 'signed in' : expect.objectContaining({ code: 'invalid_credentials' }),
      );
    }
  });

  it('lifts the lock when the password is changed', async () => {
    const { client, email } = await confirmedUser(server);
    const id = (await client.auth.getUser()).data.user!.id;
    for (let i = 0; i < 3; i += 1) await signIn(server, server.anonKey, email, `wrong ${i}`);
    expect(await signIn(server, server.anonKey, email, 'wrong again')).toMatchObject({
      status: 429,
    });
    const reset = await server.service().auth.admin.updateUserById(id, {
      password: 'a password set by support',
    });
    expect(reset.error).toBeNull();
    expect(await signIn(server, server.anonKey, email, 'a password set by support')).toBe(
      'signed in',
    );
  });
});

describe('failed passwords counted across gateway processes on PostgreSQL', () => {
  let first: TestServer;
  let second: RunningServer;
  beforeAll(async () => {
    first = await startTestServer('postgres', lockout);
    second = await startServer(
      loadConfig(
        {},
        {
          NODE_ENV: 'test',
          PORT: '0',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'silent',
          DATA_DIR: first.dataDir,
          DATABASE_URL: first.deps.config.databaseUrl,
          DATABASE_POOL_SIZE: '2',
          ...lockout,
        },
      ),
    );
  });
  afterAll(async () => {
    await second?.close();
    await first?.stop();
  });

  it('locks the address on both processes when the failures are spread over them', async () => {
    const { email, password } = await confirmedUser(first);
    expect(await signIn(first, first.anonKey, email, 'wrong 1')).toMatchObject({
      code: 'invalid_credentials',
    });
    expect(await signIn(second, first.anonKey, email, 'wrong 2')).toMatchObject({
      code: 'invalid_credentials',
    });
    expect(await signIn(first, first.anonKey, email, 'wrong 3')).toMatchObject({ status: 429 });
    expect(await signIn(second, first.anonKey, email, password)).toMatchObject({ status: 429 });
  });
});

describe('mail for existing addresses does not hold up the answer', () => {
  // An SMTP server that accepts connections and never says hello: a sender that waits for it
  // would hang until nodemailer gives up (30 s).
  const held: net.Socket[] = [];
  let connections = 0;
  let connected: () => void = () => undefined;
  const firstConnection = new Promise<void>((resolve) => {
    connected = resolve;
  });
  const tarpit = net.createServer((socket) => {
    connections += 1;
    held.push(socket);
    connected();
  });
  let server: TestServer;
  beforeAll(async () => {
    await new Promise<void>((resolve) => tarpit.listen(0, '127.0.0.1', resolve));
    const { port } = tarpit.address() as net.AddressInfo;
    server = await startTestServer('pglite', { SMTP_URL: `smtp://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => tarpit.close(resolve));
    await server?.stop();
  });

  it('answers recovery and sign-up for a registered address while its mail is still on the way', async () => {
    const email = uniqueEmail('registered');
    const created = await server.service().auth.admin.createUser({
      email,
      password: 'a long enough passphrase',
      email_confirm: true,
    });
    expect(created.error).toBeNull();

    const recovery = await server.anon().auth.resetPasswordForEmail(email);
    expect(recovery.error).toBeNull();
    // The mail was sent to a server that never answers, yet the answer came.
    await firstConnection;

    const newcomer = await browserLikeClient(server).auth.signUp({
      email: uniqueEmail('newcomer'),
      password: 'a long enough passphrase',
    });
    expect(newcomer.error).toBeNull();
    expect(connections).toBeGreaterThanOrEqual(1);
  });
});
