/**
 * The gateway as an operator starts it (`node src/server/main.ts`), in a process of its own on
 * a database the test made, for what needs several processes on one PostgreSQL database or a
 * process that dies outright (SIGKILL).
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { freePort } from './postgres-cluster';

export interface GatewayProcess {
  url: string;
  pid: number;
  /** Ends the process at once, as a crash would: it cleans nothing up. */
  kill(): Promise<void>;
  /** SIGTERM, and waits for it to drain and exit. */
  stop(): Promise<void>;
}

export async function startGatewayProcess(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<GatewayProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: os.tmpdir(),
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: '3',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATA_ROOM_PIN: 'test-pin',
      BETA_GATE: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  await new Promise<void>((resolve, reject) => {
    let buffered = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      if (buffered.includes('Lyceum listening on')) resolve();
      else buffered = buffered.slice(-200);
    });
    void exited.then(() => reject(new Error(`gateway process exited: ${stderr.slice(-1000)}`)));
  });
  child.stdout!.resume();
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
