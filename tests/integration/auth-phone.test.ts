/**
 * Phone sign-in (AUTH_PHONE): sign-up, sign-in and phone change by texted code, verify types
 * `sms` and `phone_change`. Without Twilio the texts land in the dev mailbox; with it they go
 * to Twilio's Messages API, here a loopback fake that records them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { browserLikeClient, confirmedUser, latestMail } from './auth-support';

let counter = 0;
/** A fresh number per test (E.164, a fictional UK range). */
function uniquePhone(): string {
  counter += 1;
  return `+447700${String(Date.now() % 100_000).padStart(5, '0')}${counter % 10}`;
}

const codeIn = (text: string) => /(\d{6})/.exec(text)![1]!;

describe.each(databaseKinds)('phone sign-in through the dev mailbox on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      SITE_URL: undefined,
      AUTH_PHONE: 'true',
      AUTH_RATE_LIMIT_SIGN_IN: '1000',
      AUTH_SMS_MAX_FREQUENCY_SECONDS: '60',
    });
  });
  afterAll(() => server?.stop());

  it('signs up with a phone and password, confirms by code, then signs in by password', async () => {
    const phone = uniquePhone();
    const password = 'a long enough passphrase';
    const client = browserLikeClient(server);
    const signedUp = await client.auth.signUp({ phone, password });
    expect(signedUp.error).toBeNull();
    expect(signedUp.data.session).toBeNull();
    expect(signedUp.data.user).toMatchObject({ phone: phone.slice(1), email: '' });

    const early = await client.auth.signInWithPassword({ phone, password });
    expect(early.error).toMatchObject({ status: 400, code: 'phone_not_confirmed' });

    const text = await latestMail(server, phone);
    expect(text.subject).toBe('SMS');
    const wrong = await client.auth.verifyOtp({ phone, token: '000000', type: 'sms' });
    expect(wrong.error).toMatchObject({ status: 403, code: 'otp_expired' });
    const verified = await client.auth.verifyOtp({
      phone,
      token: codeIn(text.text_body),
      type: 'sms',
    });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.phone_confirmed_at).toBeTruthy();
    expect(verified.data.user?.identities?.[0]).toMatchObject({ provider: 'phone' });

    const byPassword = await browserLikeClient(server).auth.signInWithPassword({ phone, password });
    expect(byPassword.error).toBeNull();
    const wrongPassword = await browserLikeClient(server).auth.signInWithPassword({
      phone,
      password: 'not the passphrase at all',
    });
    expect(wrongPassword.error).toMatchObject({ status: 400, code: 'invalid_credentials' });
  });

  it('signs in by texted code, and asks a number to wait before the next one', async () => {
    const phone = uniquePhone();
    const client = browserLikeClient(server);
    const sent = await client.auth.signInWithOtp({ phone });
    expect(sent.error).toBeNull();
    expect(sent.data.messageId).toMatch(/^dev-mailbox-/);
    const again = await client.auth.signInWithOtp({ phone });
    expect(again.error).toMatchObject({ status: 429, code: 'over_sms_send_rate_limit' });
    expect(again.error?.message).toMatch(/only request this after \d+ seconds/);

    const code = codeIn((await latestMail(server, phone)).text_body);
    const verified = await client.auth.verifyOtp({ phone, token: code, type: 'sms' });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.phone).toBe(phone.slice(1));
    const reused = await client.auth.verifyOtp({ phone, token: code, type: 'sms' });
    expect(reused.error).toMatchObject({ status: 403, code: 'otp_expired' });

    const refused = await browserLikeClient(server).auth.signInWithOtp({
      phone: uniquePhone(),
      options: { shouldCreateUser: false },
    });
    expect(refused.error).toMatchObject({ status: 422, code: 'otp_disabled' });
    const malformed = await browserLikeClient(server).auth.signInWithOtp({ phone: '12-ab' });
    expect(malformed.error).toMatchObject({
      status: 400,
      message: 'Invalid phone number format (E.164 required)',
    });
  });

  it('changes a signed-in user’s phone once the new number’s code is verified', async () => {
    const member = await confirmedUser(server);
    const phone = uniquePhone();
    const asked = await member.client.auth.updateUser({ phone });
    expect(asked.error).toBeNull();
    expect(asked.data.user).toMatchObject({ phone: '', new_phone: phone.slice(1) });
    const code = codeIn((await latestMail(server, phone)).text_body);
    const verified = await member.client.auth.verifyOtp({
      phone,
      token: code,
      type: 'phone_change',
    });
    expect(verified.error).toBeNull();
    expect(verified.data.user).toMatchObject({ email: member.email, phone: phone.slice(1) });

    const other = await confirmedUser(server);
    const clash = await other.client.auth.updateUser({ phone });
    expect(clash.error).toMatchObject({ status: 422, code: 'phone_exists' });
  });
});

describe('phone sign-in through Twilio, and with phone off', () => {
  const received: URLSearchParams[] = [];
  let fail = false;
  let twilio: http.Server;
  let server: TestServer;
  beforeAll(async () => {
    twilio = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        const ok =
          req.url === '/2010-04-01/Accounts/AC123/Messages.json' &&
          req.headers.authorization === `Basic ${Buffer.from('AC123:secret').toString('base64')}`;
        if (!ok || fail) {
          res.statusCode = 400;
          return res.end(JSON.stringify({ code: 21211, message: "The 'To' number is not valid." }));
        }
        received.push(new URLSearchParams(body));
        res.statusCode = 201;
        res.end(JSON.stringify({ sid: `SM${received.length}`, status: 'queued' }));
      });
    });
    await new Promise<void>((resolve) => twilio.listen(0, '127.0.0.1', resolve));
    server = await startTestServer('pglite', {
      SITE_URL: undefined,
      AUTH_PHONE: 'true',
      TWILIO_ACCOUNT_SID: 'AC123',
      TWILIO_AUTH_TOKEN: 'secret',
      TWILIO_MESSAGE_SERVICE_SID: '+15005550006',
      TWILIO_API_URL: `http://127.0.0.1:${(twilio.address() as AddressInfo).port}`,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await new Promise<void>((resolve) => twilio.close(() => resolve()));
  });

  it('texts the code through Twilio and reports its refusals', async () => {
    const phone = uniquePhone();
    const client = browserLikeClient(server);
    const sent = await client.auth.signInWithOtp({ phone });
    expect(sent.error).toBeNull();
    expect(sent.data.messageId).toBe(`SM${received.length}`);
    const message = received.at(-1)!;
    expect(message.get('To')).toBe(phone);
    expect(message.get('From')).toBe('+15005550006');
    const verified = await client.auth.verifyOtp({
      phone,
      token: codeIn(message.get('Body')!),
      type: 'sms',
    });
    expect(verified.error).toBeNull();

    fail = true;
    const refused = await browserLikeClient(server).auth.signInWithOtp({ phone: uniquePhone() });
    expect(refused.error).toMatchObject({ status: 422, code: 'sms_send_failed' });
    expect(refused.error?.message).toMatch(/The 'To' number is not valid/);
  });

  it('answers GoTrue’s refusals when phone sign-in is off', async () => {
    const off = await startTestServer('pglite', { SITE_URL: undefined });
    try {
      const signUp = await off
        .anon()
        .auth.signUp({ phone: uniquePhone(), password: 'long enough pass' });
      expect(signUp.error).toMatchObject({ status: 400, code: 'phone_provider_disabled' });
      const otp = await off.anon().auth.signInWithOtp({ phone: uniquePhone() });
      expect(otp.error).toMatchObject({ status: 400, code: 'phone_provider_disabled' });
      const password = await off.anon().auth.signInWithPassword({
        phone: uniquePhone(),
        password: 'long enough pass',
      });
      expect(password.error).toMatchObject({ status: 422, code: 'phone_provider_disabled' });
    } finally {
      await off.stop();
    }
  });
});
