/**
 * Starts the real gateway on a loopback port for one test file, on a fresh copy of the run's
 * migrated database: in-memory PGlite, or a new database in the run's PostgreSQL cluster.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import * as jose from 'jose';
import pg from 'pg';
import WebSocket from 'ws';
import { inject } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { openPglite } from '../../src/server/db/pglite';
import type { Database } from '../../src/server/db/types';
import type { Logger } from '../../src/server/logger';
import { startServer, type RunningServer } from '../../src/server/start';

export type DatabaseKind = 'pglite' | 'postgres';
export const databaseKinds: DatabaseKind[] = ['pglite', 'postgres'];

export interface TestServer extends RunningServer {
  anonKey: string;
  serviceRoleKey: string;
  dataDir: string;
  /** A supabase-js client with the anon key (no session persistence). */
  anon(): SupabaseClient;
  /** A supabase-js client with the service-role key. */
  service(): SupabaseClient;
  /** A client for a given bearer token (e.g. a user's access token). */
  withToken(token: string): SupabaseClient;
  stop(): Promise<void>;
}

/** realtime-js needs a WebSocket implementation, which Node 20 lacks globally: `ws`'s. */
const clientOptions = {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  realtime: { transport: WebSocket as never },
} as const;

/** A supabase-js client for the server with an API key, optionally sending another bearer token. */
export function testClient(
  server: Pick<RunningServer, 'url'>,
  apiKey: string,
  token?: string,
): SupabaseClient {
  return createClient(server.url, apiKey, {
    ...clientOptions,
    ...(token ? { global: { headers: { Authorization: `Bearer ${token}` } } } : {}),
  });
}

/** Signs an access token for a test user with the server's current key. */
export function signUserToken(
  server: Pick<RunningServer, 'deps'>,
  sub: string,
  options: { expiresIn?: string | number; claims?: Record<string, unknown> } = {},
): Promise<string> {
  const key = server.deps.keys.current;
  return new jose.SignJWT({ role: 'authenticated', sub, aud: 'authenticated', ...options.claims })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '1h')
    .sign(key.privateKey);
}

/** The run's migrated PGlite data directory, read once per worker (a Blob is immutable). */
let pgliteTemplate: Blob | undefined;

/**
 * A fresh database with the schema already migrated, copied from the template the global setup
 * built (tests/support/global-databases.ts): PGlite in memory loaded from the template's dump,
 * or a new PostgreSQL database made with `create database … template`.
 */
async function freshDatabase(kind: DatabaseKind): Promise<{ db?: Database; databaseUrl?: string }> {
  if (kind === 'pglite') {
    pgliteTemplate ??= new Blob([fs.readFileSync(inject('pgliteTemplateFile'))]);
    return { db: await openPglite('memory://', { loadDataDir: pgliteTemplate }) };
  }
  const adminUrl = inject('postgresAdminUrl');
  const name = `t_${randomUUID().replace(/-/g, '')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${inject('postgresTemplate')}`);
  } finally {
    await admin.end();
  }
  return { databaseUrl: adminUrl.replace(/\/postgres$/, `/${name}`) };
}

/**
 * Starts the gateway on its own copy of the migrated database; each call gets a new one, so a
 * test file (or a test that needs a second server) never sees another's rows.
 */
export async function startTestServer(
  kind: DatabaseKind,
  env: Record<string, string | undefined> = {},
  /** A logger the test reads; without one the server logs nothing (LOG_LEVEL silent). */
  options: { log?: Logger } = {},
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-test-'));
  const { db, databaseUrl } = await freshDatabase(kind);
  const config = loadConfig(
    {},
    {
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: '5',
      // Users sign up freely here; the beta gate's own tests turn it on.
      BETA_GATE: 'false',
      ...env,
    },
  );
  const server = await startServer(config, { db, log: options.log });
  const { anonKey, serviceRoleKey } = server.deps.keys;
  return {
    ...server,
    anonKey,
    serviceRoleKey,
    dataDir,
    anon: () => testClient(server, anonKey),
    service: () => testClient(server, serviceRoleKey),
    withToken: (token: string) => testClient(server, anonKey, token),
    async stop() {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
