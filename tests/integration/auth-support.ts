/** Helpers for the auth integration tests: the dev mailbox, fresh clients, verify links. */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import * as OTPAuth from 'otpauth';
import { expect } from 'vitest';
import type { TestServer } from '../support/test-server';

// supabase-js constructs its realtime client eagerly, and Node 20 has no global WebSocket.
// Auth tests never open a realtime channel, so a class that is never instantiated suffices.
globalThis.WebSocket ??= class {
  constructor() {
    throw new Error('realtime is not used in auth tests');
  }
} as unknown as typeof WebSocket;

export interface Mail {
  to_address: string;
  subject: string;
  text_body: string;
}

export async function latestMail(server: TestServer, to: string): Promise<Mail> {
  const { rows } = await server.deps.db.query<Mail & Record<string, unknown>>(
    'select to_address, subject, text_body from auth.dev_mailbox where lower(to_address) = lower($1) order by id desc limit 1',
    [to],
  );
  expect(rows[0], `a mail to ${to}`).toBeDefined();
  return rows[0]!;
}

export async function mailCount(server: TestServer, to: string): Promise<number> {
  const { rows } = await server.deps.db.query<{ n: number }>(
    'select count(*)::int as n from auth.dev_mailbox where lower(to_address) = lower($1)',
    [to],
  );
  return rows[0]!.n;
}

export function linkIn(mail: Mail): string {
  const match = /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mail.text_body);
  expect(match, 'a verify link in the mail').not.toBeNull();
  return match![0];
}

export function codeIn(mail: Mail): string {
  const match = /code: (\d{6})/.exec(mail.text_body);
  expect(match, 'a six-digit code in the mail').not.toBeNull();
  return match![1]!;
}

/** Follows a mail link without following the redirect; returns where it sends the browser. */
export async function followLink(link: string): Promise<URL> {
  const response = await fetch(link, { redirect: 'manual' });
  expect(response.status).toBe(303);
  return new URL(response.headers.get('location')!);
}

export function hashParams(url: URL): URLSearchParams {
  return new URLSearchParams(url.hash.replace(/^#/, ''));
}

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${counter}@example.com`;
}

/** A client with its own in-memory storage, like one browser. */
export function browserLikeClient(
  server: TestServer,
  options: { flowType?: 'implicit' | 'pkce'; autoRefreshToken?: boolean } = {},
): SupabaseClient {
  const store = new Map<string, string>();
  return createClient(server.url, server.anonKey, {
    auth: {
      persistSession: true,
      autoRefreshToken: options.autoRefreshToken ?? false,
      detectSessionInUrl: false,
      flowType: options.flowType ?? 'implicit',
      experimental: { recoveryCodes: true },
      storage: {
        getItem: (key) => store.get(key) ?? null,
        setItem: (key, value) => void store.set(key, value),
        removeItem: (key) => void store.delete(key),
      },
    },
  });
}

/** Signs up and confirms through the mailed link; returns a signed-in client. */
export async function confirmedUser(
  server: TestServer,
  password = 'a long enough passphrase',
  email = uniqueEmail(),
): Promise<{ email: string; password: string; client: SupabaseClient }> {
  const client = browserLikeClient(server);
  const { error } = await client.auth.signUp({ email, password });
  expect(error).toBeNull();
  await followLink(linkIn(await latestMail(server, email)));
  const signIn = await client.auth.signInWithPassword({ email, password });
  expect(signIn.error).toBeNull();
  return { email, password, client };
}

/** The TOTP code `offsetSteps` periods from now; later steps for later checks (no replays). */
export function totpCode(secret: string, offsetSteps = 0): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + offsetSteps * 30_000,
  });
}

/**
 * A confirmed user with a verified authenticator app; `client` is at aal2. Codes for later
 * verifications: `totpCode(secret, 0)` then `totpCode(secret, 1)` (enrolment used step -1).
 */
export async function userWithTotp(server: TestServer) {
  const user = await confirmedUser(server);
  const enrolled = await user.client.auth.mfa.enroll({ factorType: 'totp' });
  expect(enrolled.error).toBeNull();
  const factorId = enrolled.data!.id;
  const secret = enrolled.data!.totp.secret;
  // The server accepts a code one step either side of its own. A step-old code sent in the
  // last moments of a step reaches the server two steps old and is refused: send it early in
  // a step instead (waiting for the next one to begin when this one is about to end).
  const leftInStep = 30_000 - (Date.now() % 30_000);
  if (leftInStep < 5_000) await new Promise((resolve) => setTimeout(resolve, leftInStep + 50));
  const verified = await user.client.auth.mfa.challengeAndVerify({
    factorId,
    code: totpCode(secret, -1),
  });
  expect(verified.error).toBeNull();
  return { ...user, factorId, secret };
}
