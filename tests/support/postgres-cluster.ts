/**
 * A throwaway PostgreSQL cluster from the Debian binaries: initdb as a non-root user, a free
 * loopback port, removed afterwards.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface PostgresCluster {
  /** Connection URL of the cluster's `postgres` database (superuser). */
  adminUrl: string;
  /** Creates an empty database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server and keeps its data, as a database restart or outage would. */
  halt(): Promise<void>;
  /** Starts the halted server again on the same port, once it accepts connections. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

function findBinDir(): string {
  const root = '/usr/lib/postgresql';
  if (fs.existsSync(root)) {
    const versions = fs
      .readdirSync(root)
      .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(root, versions[0], 'bin');
  }
  try {
    return execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(
      'PostgreSQL server binaries were not found. Install them with `apt-get install postgresql` (Debian) and run the tests again.',
    );
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const isRoot = process.getuid?.() === 0;

function asPostgresUser(command: string, args: string[]): [string, string[]] {
  // initdb refuses to run as root; Debian's package creates the `postgres` user.
  return isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

/**
 * Server settings beside the defaults below. The cluster runs with wal_level=logical, so
 * realtime captures changes by logical replication (decision 0304); `{ wal_level: 'replica' }`
 * starts one without it.
 */
export type ClusterSettings = Record<string, string>;

export async function startPostgresCluster(
  settings: ClusterSettings = {},
): Promise<PostgresCluster> {
  const bin = findBinDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-pg-'));
  const dataDir = path.join(dir, 'data');
  if (isRoot) execFileSync('chown', ['-R', 'postgres', dir]);
  const [initCmd, initArgs] = asPostgresUser(path.join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '-A',
    'trust',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C',
  ]);
  execFileSync(initCmd, initArgs, { stdio: 'pipe' });
  const port = await freePort();
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let proc = await launch(bin, dir, dataDir, port, adminUrl, settings);

  /**
   * Stops the server: `fast` ends every session and writes its data out, as a restart does;
   * `immediate` (for throwing the cluster away) skips the write.
   */
  async function halt(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    // runuser does not forward signals to postgres, so ask pg_ctl to stop the server.
    const exited = new Promise<void>((resolve) => {
      if (proc.exitCode !== null) return resolve();
      proc.once('exit', () => resolve());
    });
    const [stopCmd, stopArgs] = asPostgresUser(path.join(bin, 'pg_ctl'), [
      '-D',
      dataDir,
      '-m',
      mode,
      '-w',
      'stop',
    ]);
    try {
      execFileSync(stopCmd, stopArgs, { stdio: 'pipe' });
    } catch {
      proc.kill('SIGKILL');
    }
    await exited;
  }

  return {
    adminUrl,
    async createDatabase(name) {
      const safe = name
        .toLowerCase()
        .replace(/[^a-z0-9_]/g, '_')
        .slice(0, 60);
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`create database ${pg.escapeIdentifier(safe)}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${safe}`;
    },
    halt: () => halt('fast'),
    async resume() {
      proc = await launch(bin, dir, dataDir, port, adminUrl, settings);
    },
    async stop() {
      await halt('immediate');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts postgres on `dataDir` and waits until it accepts connections. */
async function launch(
  bin: string,
  dir: string,
  dataDir: string,
  port: number,
  adminUrl: string,
  settings: ClusterSettings,
): Promise<ChildProcess> {
  const merged: ClusterSettings = {
    listen_addresses: '127.0.0.1',
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    max_connections: '300',
    shared_buffers: '256MB',
    // Every gateway process with realtime subscribers holds a replication slot and a sender.
    wal_level: 'logical',
    max_replication_slots: '64',
    max_wal_senders: '64',
    ...settings,
  };
  const [cmd, args] = asPostgresUser(path.join(bin, 'postgres'), [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-k',
    dir,
    ...Object.entries(merged).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ]);
  const proc = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.end();
      return proc;
    } catch (error) {
      if (proc.exitCode !== null || Date.now() > deadline) {
        proc.kill('SIGKILL');
        throw new Error(`PostgreSQL did not start: ${(error as Error).message}\n${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
