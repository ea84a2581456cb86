import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../src/server/config';
import { startServer } from '../../src/server/start';
import { ensureChromium } from './browser';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    e2eDataDir: string;
  }
}

/**
 * The built app (`npm run build` runs before `npm test`) served by the real server on an
 * embedded database with a fixed data-room PIN, shared by every browser test file.
 */
export default async function setup(project: TestProject) {
  ensureChromium();
  const distDir = path.resolve(process.env.WEB_DIST_DIR ?? 'dist/web');
  if (!fs.existsSync(path.join(distDir, 'index.html'))) {
    throw new Error('Browser tests need the built app: run `npm run build` first (npm test does).');
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-e2e-'));
  const config = loadConfig(
    {},
    {
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      DATA_ROOM_PIN: 'e2e-pin-4242',
      // Users sign up freely here; the beta gate's own tests turn it on.
      BETA_GATE: 'false',
      WEB_DIST_DIR: distDir,
    },
  );
  const server = await startServer(config);
  project.provide('baseUrl', server.url);
  project.provide('e2eDataDir', dataDir);
  return async () => {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
