/**
 * A browser test file's own server for the built app, when it needs settings the shared one
 * (global-e2e.ts) does not have: the same base settings, plus `env`, on a fresh embedded
 * database in its own data directory, removed on close.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/server/config';
import { startServer, type RunningServer } from '../../src/server/start';

/** The running server; closing it also removes its data directory. */
export type OwnAppServer = RunningServer;

export async function startOwnAppServer(
  name: string,
  env: Record<string, string>,
): Promise<OwnAppServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `lyceum-e2e-${name}-`));
  const config = loadConfig(
    {},
    {
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      BETA_GATE: 'false',
      WEB_DIST_DIR: path.resolve(process.env.WEB_DIST_DIR ?? 'dist/web'),
      ...env,
    },
  );
  const server = await startServer(config);
  return {
    ...server,
    async close() {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
