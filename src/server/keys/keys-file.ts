/**
 * The deployment's API URL and keys as three dotenv lines, and the file an embedded server
 * keeps them in. One process owns an embedded data directory, so `npm run keys` cannot open the
 * database while the server runs: the server writes `DATA_DIR/keys.env` (readable by its owner
 * only, like the database files beside it) at every start, and the script reads it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logger';
import type { KeySet } from './key-store';

export const KEYS_FILE = 'keys.env';

export function keysDotenv(apiUrl: string, keys: Pick<KeySet, 'anonKey' | 'serviceRoleKey'>) {
  return `API_URL=${apiUrl}\nANON_KEY=${keys.anonKey}\nSERVICE_ROLE_KEY=${keys.serviceRoleKey}\n`;
}

export function writeKeysFile(dataDir: string, dotenv: string): string {
  const file = path.join(dataDir, KEYS_FILE);
  const temporary = `${file}.${process.pid}`;
  fs.writeFileSync(temporary, dotenv, { mode: 0o600 });
  // The mode of a file that already existed is kept by rename: set it on the new one.
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, file);
  return file;
}

/** The keys file's text, or undefined when the server has not written one. */
export function readKeysFile(dataDir: string): string | undefined {
  try {
    return fs.readFileSync(path.join(dataDir, KEYS_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * On the first start (the keys were issued just now, on either database) prints them once, as
 * the data-room PIN is. The URL is SITE_URL or localhost with PORT, as `npm run keys` says.
 */
export function announceIssuedKeys(
  config: { siteUrl?: string; port: number },
  keys: KeySet,
  log: Logger,
): void {
  if (!keys.issued) return;
  const dotenv = keysDotenv(config.siteUrl ?? `http://localhost:${config.port}`, keys);
  log.warn(
    `API keys generated on first start: ${dotenv.trim().split('\n').join(' ')} — ` +
      '`npm run keys` prints them again at any time, also while the server runs.',
  );
}

/**
 * The embedded server writes the keys file once it listens; returns what removes it again when
 * the server stops, so a keys file in DATA_DIR means a running server.
 */
export function publishKeysFile(dataDir: string, apiUrl: string, keys: KeySet): () => void {
  const file = writeKeysFile(dataDir, keysDotenv(apiUrl, keys));
  return () => fs.rmSync(file, { force: true });
}
