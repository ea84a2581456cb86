import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { openPglite } from '../../src/server/db/pglite';
import { createLogger } from '../../src/server/logger';
import { startServer } from '../../src/server/start';
import { startTestServer, type TestServer } from '../support/test-server';

const run = promisify(execFile);

/** Runs `scripts/keys.ts` the way `npm run keys` does, with only the given settings. */
async function keys(env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run('node', ['--import', 'tsx', 'scripts/keys.ts'], {
      env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

function parseDotenv(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

describe('npm run keys', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-keys-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('prints exactly three dotenv lines for the embedded database, stable across runs', async () => {
    const first = await keys({ DATA_DIR: dataDir, PORT: '4321' });
    expect(first.code).toBe(0);
    const lines = first.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    const values = parseDotenv(first.stdout);
    expect(Object.keys(values)).toEqual(['API_URL', 'ANON_KEY', 'SERVICE_ROLE_KEY']);
    expect(values.API_URL).toBe('http://localhost:4321');
    for (const key of [values.ANON_KEY, values.SERVICE_ROLE_KEY]) {
      expect(key).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    }
    const role = (token: string) =>
      (
        JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
          role: string;
        }
      ).role;
    expect(role(values.ANON_KEY ?? '')).toBe('anon');
    expect(role(values.SERVICE_ROLE_KEY ?? '')).toBe('service_role');

    const second = await keys({ DATA_DIR: dataDir, SITE_URL: 'https://lyceum.example/' });
    expect(parseDotenv(second.stdout)).toEqual({ ...values, API_URL: 'https://lyceum.example' });
  }, 120_000);

  it('refuses clearly while a process that is not a server holds the data directory', async () => {
    const db = await openPglite(dataDir);
    try {
      const result = await keys({ DATA_DIR: dataDir });
      expect(result.code).not.toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`in use by process ${process.pid}`);
      expect(result.stderr).toContain('keys.env');
    } finally {
      await db.close();
    }
  }, 60_000);

  it('reports invalid settings without printing keys', async () => {
    const result = await keys({ DATA_DIR: dataDir, DATABASE_URL: 'not a url' });
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('DATABASE_URL');
  });
});

describe('npm run keys while the embedded server runs', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-keys-running-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  function start(lines: string[]) {
    const config = loadConfig(
      {},
      { NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO_SEED: 'false' },
    );
    return startServer(config, { log: createLogger('info', (line) => lines.push(line)) });
  }

  it("prints the keys once at the first start, and the running server's keys on demand", async () => {
    const firstLog: string[] = [];
    const server = await start(firstLog);
    let values: Record<string, string>;
    try {
      const announced = firstLog.filter((line) => line.includes('API keys generated'));
      expect(announced).toHaveLength(1);
      expect(announced[0]).toContain(`ANON_KEY=${server.deps.keys.anonKey}`);
      expect(announced[0]).toContain(`SERVICE_ROLE_KEY=${server.deps.keys.serviceRoleKey}`);

      const result = await keys({ DATA_DIR: dataDir });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      values = parseDotenv(result.stdout);
      expect(values).toEqual({
        API_URL: server.url,
        ANON_KEY: server.deps.keys.anonKey,
        SERVICE_ROLE_KEY: server.deps.keys.serviceRoleKey,
      });
      expect(fs.statSync(path.join(dataDir, 'keys.env')).mode & 0o777).toBe(0o600);
    } finally {
      await server.close();
    }
    expect(fs.existsSync(path.join(dataDir, 'keys.env'))).toBe(false);

    const secondLog: string[] = [];
    const again = await start(secondLog);
    try {
      expect(secondLog.some((line) => line.includes('API keys generated'))).toBe(false);
      expect(parseDotenv((await keys({ DATA_DIR: dataDir })).stdout)).toEqual({
        ...values,
        API_URL: again.url,
      });
    } finally {
      await again.close();
    }
  }, 120_000);
});

describe('npm run keys on PostgreSQL', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('postgres');
  });
  afterAll(() => server?.stop());

  it('prints the same keys the running gateway uses', async () => {
    const result = await keys({ DATABASE_URL: server.deps.config.databaseUrl ?? '' });
    expect(result.code).toBe(0);
    const values = parseDotenv(result.stdout);
    expect(values.ANON_KEY).toBe(server.anonKey);
    expect(values.SERVICE_ROLE_KEY).toBe(server.serviceRoleKey);
  });
});
