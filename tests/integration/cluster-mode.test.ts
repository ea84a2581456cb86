/**
 * Cluster mode as an operator runs it: `WORKERS=2 node src/server/main.ts` on PostgreSQL,
 * as separate processes. One port served by both workers, a killed worker replaced, SIGTERM
 * draining a request in flight before everything exits; and PGlite refusing more than one.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { freePort } from '../support/postgres-cluster';

type LogLine = { msg: string; worker?: number; pid?: number; [field: string]: unknown };

/** The product started as `npm run serve` does, with only the given settings. */
function startMain(env: Record<string, string>) {
  const child = spawn('node', ['--import', 'tsx', 'src/server/main.ts'], {
    env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  let stderr = '';
  let buffered = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const part of parts) {
      try {
        lines.push(JSON.parse(part) as LogLine);
      } catch {
        // Not a log line (a library printing on its own): not ours to check.
      }
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    lines,
    exited,
    stderr: () => stderr,
    /** Waits for a log line matching `test` (there may be one already). */
    line: (test: (line: LogLine) => boolean, timeout = 60_000) =>
      vi.waitFor(
        () => {
          const found = lines.find(test);
          if (!found) throw new Error(`no such log line yet; stderr: ${stderr.slice(-500)}`);
          return found;
        },
        { timeout, interval: 50 },
      ),
  };
}

/** One request on a connection of its own, so the primary hands it to the next worker. */
function getOnNewConnection(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-cluster-web-'));
afterAll(() => fs.rmSync(webDir, { recursive: true, force: true }));

describe('cluster mode', () => {
  it('refuses WORKERS=2 on the embedded database with a clear message', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-cluster-pglite-'));
    try {
      const main = startMain({ WORKERS: '2', DATA_DIR: dataDir, PORT: '0' });
      expect(await main.exited).toBe(1);
      expect(main.stderr()).toContain(
        'WORKERS=2 needs PostgreSQL: the embedded PGlite database belongs to one process. ' +
          'Set DATABASE_URL to a PostgreSQL server, or unset WORKERS.',
      );
      expect(main.lines.some((line) => /listening/.test(line.msg))).toBe(false);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('serves one port from two workers on PostgreSQL, replaces a dead one, drains on SIGTERM', async () => {
    const adminUrl = inject('postgresAdminUrl');
    const name = `t_${randomUUID().replace(/-/g, '')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const databaseUrl = adminUrl.replace(/\/postgres$/, `/${name}`);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;

    const main = startMain({
      WORKERS: '2',
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: '3',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      WEB_DIST_DIR: webDir,
      DATA_ROOM_PIN: 'cluster-pin',
    });
    const db = new pg.Client({ connectionString: databaseUrl });
    try {
      await main.line((line) =>
        line.msg.endsWith('with PostgreSQL (DATABASE_URL), 2 worker processes'),
      );
      const workers = main.lines.filter((line) => / listening$/.test(line.msg));
      expect(workers).toHaveLength(2);
      // The primary prepared the database once, before the workers started.
      expect(main.lines.filter((line) => line.msg === 'data room seeded')).toHaveLength(1);

      // Connections are dealt out in turn: both workers answer.
      const servedBy = new Set<number>();
      await vi.waitFor(
        async () => {
          expect(await getOnNewConnection(`${url}/health`)).toBe(200);
          for (const line of main.lines)
            if (line.msg === 'request' && line.worker !== undefined) servedBy.add(line.worker);
          expect(servedBy.size).toBe(2);
        },
        { timeout: 30_000, interval: 20 },
      );

      // A worker killed outright is replaced, and the port keeps answering.
      const victim = workers[0]!;
      process.kill(victim.pid!, 'SIGKILL');
      await main.line((line) => line.msg === `worker ${victim.worker} exited; starting a new one`);
      const replacement = await main.line(
        (line) =>
          / listening$/.test(line.msg) &&
          line.worker !== workers[0]!.worker &&
          line.worker !== workers[1]!.worker,
      );
      expect(replacement.pid).not.toBe(victim.pid);
      for (let i = 0; i < 4; i++) expect(await getOnNewConnection(`${url}/health`)).toBe(200);

      // SIGTERM while a PIN check (at least 500 ms) is in flight: it still gets its answer.
      await db.connect();
      const pinCheck = fetch(`${url}/functions/v1/data-room-access`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', apikey: await anonKey(db) },
        body: JSON.stringify({ pin: 'not-the-pin' }),
      });
      await vi.waitFor(
        async () => {
          const { rows } = await db.query('select 1 from data_room.pin_attempts');
          expect(rows).toHaveLength(1);
        },
        { timeout: 10_000, interval: 10 },
      );
      main.child.kill('SIGTERM');
      const answer = await pinCheck;
      expect(answer.status).toBe(401);
      expect(await main.exited).toBe(0);
      await main.line((line) => line.msg === 'All workers stopped');
      const pids = main.lines.filter((line) => / listening$/.test(line.msg)).map((l) => l.pid!);
      for (const pid of pids) expect(alive(pid)).toBe(false);
    } finally {
      if (main.child.exitCode === null) main.child.kill('SIGKILL');
      await db.end().catch(() => undefined);
    }
  }, 180_000);
});

/** The stored anon key, as `npm run keys` prints it. */
async function anonKey(db: pg.Client): Promise<string> {
  const { rows } = await db.query<{ value: string }>(
    `select value from platform.settings where key like 'api_key.anon.%'`,
  );
  return rows[0]!.value;
}
