/**
 * Auth benchmark (issue 4): password sign-ins per second, token refreshes per second and the
 * latency of GET /auth/v1/user, on PGlite and on a throwaway PostgreSQL cluster, against the
 * running gateway over HTTP. Keycloak's published sizing is about 15 password logins/s and
 * 120 refreshes/s per vCPU; the figures here are for this whole machine.
 *
 *   npm run bench            (all benchmarks)
 *   node --import tsx bench/auth-bench.ts [seconds-per-case]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/server/config';
import { openPglite } from '../src/server/db/pglite';
import { startServer, type RunningServer } from '../src/server/start';
import { startPostgresCluster, type PostgresCluster } from '../tests/support/postgres-cluster';
import { measureHttp, measureLoop, type Measurement } from './lib/measure';

const SECONDS = Number(process.argv[2] ?? 5);
const EMAIL = 'bench@example.com';
const PASSWORD = 'a long enough passphrase';

interface Row {
  database: string;
  name: string;
  connections: number;
  m: Measurement;
}

async function call(server: RunningServer, pathAndQuery: string, body: unknown) {
  const response = await fetch(`${server.url}/auth/v1${pathAndQuery}`, {
    method: 'POST',
    headers: { apikey: server.deps.keys.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${pathAndQuery}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as { access_token: string; refresh_token: string };
}

async function benchDatabase(
  kind: 'pglite' | 'postgres',
  cluster?: PostgresCluster,
): Promise<Row[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-auth-bench-'));
  const databaseUrl = cluster
    ? await cluster.createDatabase(`bench_auth_${Date.now()}`)
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
      MAILER_AUTOCONFIRM: 'true',
      // The benchmark measures the service, not the abuse limits.
      AUTH_RATE_LIMIT_SIGN_IN: '100000000',
      AUTH_RATE_LIMIT_TOKEN_REFRESH: '100000000',
    },
  );
  const server = await startServer(config, {
    db: kind === 'pglite' ? await openPglite('memory://') : undefined,
  });
  const rows: Row[] = [];
  try {
    await call(server, '/signup', { email: EMAIL, password: PASSWORD });
    const headers = { apikey: server.deps.keys.anonKey, 'content-type': 'application/json' };

    // argon2id (19 MiB, t=2) runs on libuv's 4 threads: more clients only queue.
    const signInConnections = 4;
    await measureHttp(
      {
        url: `${server.url}/auth/v1/token?grant_type=password`,
        method: 'POST',
        headers,
        body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
      },
      { connections: signInConnections, seconds: 1 },
    );
    rows.push({
      database: kind,
      name: 'password sign-in (POST /token?grant_type=password)',
      connections: signInConnections,
      m: await measureHttp(
        {
          url: `${server.url}/auth/v1/token?grant_type=password`,
          method: 'POST',
          headers,
          body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
        },
        { connections: signInConnections, seconds: SECONDS },
      ),
    });

    // Each refresh token works once, so every client carries its own session forward.
    const refreshConnections = 20;
    const tokens: string[] = [];
    for (let i = 0; i < refreshConnections; i += 1) {
      tokens.push(
        (await call(server, '/token?grant_type=password', { email: EMAIL, password: PASSWORD }))
          .refresh_token,
      );
    }
    // A pool of live refresh tokens: take one, refresh it, put its successor back.
    const pool = [...tokens];
    rows.push({
      database: kind,
      name: 'token refresh (POST /token?grant_type=refresh_token)',
      connections: refreshConnections,
      m: await measureLoop(
        async () => {
          const token = pool.pop()!;
          const session = await call(server, '/token?grant_type=refresh_token', {
            refresh_token: token,
          });
          pool.push(session.refresh_token);
        },
        { connections: refreshConnections, seconds: SECONDS },
      ),
    });

    const session = await call(server, '/token?grant_type=password', {
      email: EMAIL,
      password: PASSWORD,
    });
    const userConnections = 50;
    rows.push({
      database: kind,
      name: 'GET /user',
      connections: userConnections,
      m: await measureHttp(
        {
          url: `${server.url}/auth/v1/user`,
          headers: {
            apikey: server.deps.keys.anonKey,
            authorization: `Bearer ${session.access_token}`,
          },
        },
        { connections: userConnections, seconds: SECONDS },
      ),
    });
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

const rows = await benchDatabase('pglite');
const cluster = await startPostgresCluster();
try {
  rows.push(...(await benchDatabase('postgres', cluster)));
} finally {
  await cluster.stop();
}

const cpus = os.cpus().length;
console.log(
  `Auth benchmark: ${SECONDS} s per case, ${cpus} CPUs, gateway and load generator on the same machine\n`,
);
console.log('| database | case | clients | req/s | req/s per CPU | p50 ms | p99 ms | errors |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${r.database} | ${r.name} | ${r.connections} | ${r.m.requestsPerSecond.toFixed(1)} | ${(r.m.requestsPerSecond / cpus).toFixed(1)} | ${r.m.p50Ms.toFixed(1)} | ${r.m.p99Ms.toFixed(1)} | ${r.m.errors} |`,
  );
}
console.log(
  '\nKeycloak sizing for comparison: ~15 password logins/s and ~120 refreshes/s per vCPU.',
);
if (rows.some((r) => r.m.errors > 0)) {
  console.error('Some requests failed: the figures above are suspect.');
  process.exitCode = 1;
}
