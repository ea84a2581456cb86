/**
 * The servers a benchmark measures: the real gateway on a fresh database (PGlite in memory, or a
 * new database in a throwaway PostgreSQL cluster), and a bare Hono app on a loopback port for
 * the no-service-layer baseline.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import { loadConfig } from '../../src/server/config';
import { openPglite } from '../../src/server/db/pglite';
import { startServer, type RunningServer } from '../../src/server/start';
import { startPostgresCluster, type PostgresCluster } from '../../tests/support/postgres-cluster';

export type BenchDatabase = 'pglite' | 'postgres';

export interface BenchServer {
  server: RunningServer;
  close(): Promise<void>;
}

/**
 * Starts the gateway quietly on `kind`; `name` keeps each bench's temporary directory and
 * database apart, `env` adds settings (e.g. lifting the rate limits a bench would only measure).
 */
export async function startBenchServer(
  kind: BenchDatabase,
  cluster: PostgresCluster | undefined,
  name: string,
  env: Record<string, string> = {},
): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `lyceum-bench-${name}-`));
  const databaseUrl = cluster
    ? await cluster.createDatabase(`bench_${name}_${Date.now()}`)
    : undefined;
  const config = loadConfig(
    {},
    {
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      // Users sign up freely here; the beta gate's own tests turn it on.
      BETA_GATE: 'false',
      DATABASE_URL: databaseUrl,
      ...env,
    },
  );
  const server = await startServer(config, {
    db: kind === 'pglite' ? await openPglite('memory://') : undefined,
  });
  return {
    server,
    async close() {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs `bench` on PGlite, then on a throwaway PostgreSQL cluster it stops afterwards; `only`
 * limits it to one of them.
 */
export async function onBothDatabases<Row>(
  bench: (kind: BenchDatabase, cluster?: PostgresCluster) => Promise<Row[]>,
  only?: BenchDatabase,
): Promise<Row[]> {
  const rows = only === 'postgres' ? [] : await bench('pglite');
  if (only === 'pglite') return rows;
  const cluster = await startPostgresCluster();
  try {
    rows.push(...(await bench('postgres', cluster)));
  } finally {
    await cluster.stop();
  }
  return rows;
}

/** Serves a bare Hono app on a free loopback port. */
export async function serveBare(app: Hono): Promise<{ url: string; close(): Promise<void> }> {
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
