/**
 * `npm run keys`: prints the deployment's API URL and keys as three dotenv lines for the
 * database DATA_DIR / DATABASE_URL point at, creating the keys on a fresh database.
 * Only those three lines go to stdout, so `npm run keys > .env.local` works.
 *
 * While an embedded server runs, it owns the data directory (one process per directory): the
 * lines are then the ones that server wrote to DATA_DIR/keys.env at start-up.
 */
import path from 'node:path';
import { ConfigError, loadConfig } from '../src/server/config';
import { runningHolder } from '../src/server/db/data-dir-lock';
import { migrate } from '../src/server/db/migrate';
import { openDatabase } from '../src/server/db/open';
import { loadKeySet } from '../src/server/keys/key-store';
import { KEYS_FILE, keysDotenv, readKeysFile } from '../src/server/keys/keys-file';

async function main(): Promise<number> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
  if (!config.databaseUrl) {
    const holder = runningHolder(config.dataDir);
    if (holder) {
      const written = readKeysFile(config.dataDir);
      if (written) {
        process.stdout.write(written);
        return 0;
      }
      console.error(
        `The data directory ${config.dataDir} is in use by process ${holder.pid}, which has not ` +
          `written ${path.join(config.dataDir, KEYS_FILE)} (a server writes it once it listens). ` +
          'Run npm run keys again once the server is up, or stop that process.',
      );
      return 1;
    }
  }
  let db;
  try {
    db = await openDatabase(config);
  } catch (error) {
    console.error(`npm run keys could not open the database: ${(error as Error).message}`);
    return 1;
  }
  try {
    await migrate(db);
    const keys = await loadKeySet(db, config);
    const apiUrl = config.siteUrl ?? `http://localhost:${config.port}`;
    process.stdout.write(keysDotenv(apiUrl, keys));
    return 0;
  } catch (error) {
    console.error(`npm run keys failed: ${(error as Error).message}`);
    return 1;
  } finally {
    await db.close();
  }
}

process.exitCode = await main();
