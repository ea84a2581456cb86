/**
 * `npm run keys`: prints the deployment's API URL and keys as three dotenv lines for the
 * database DATA_DIR / DATABASE_URL point at, creating the keys on a fresh database.
 * Only those three lines go to stdout, so `npm run keys > .env.local` works.
 */
import { ConfigError, loadConfig } from '../src/server/config';
import { migrate } from '../src/server/db/migrate';
import { openDatabase } from '../src/server/db/open';
import { loadKeySet } from '../src/server/keys/key-store';

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
  let db;
  try {
    db = await openDatabase(config);
  } catch (error) {
    console.error(`npm run keys could not open the database: ${(error as Error).message}`);
    if (!config.databaseUrl) {
      console.error(
        'The embedded database can only be open in one process. While the server runs, its ' +
          'anon key is served at /client-config.json; stop the server to print both keys.',
      );
    }
    return 1;
  }
  try {
    await migrate(db);
    const keys = await loadKeySet(db, config);
    const apiUrl = config.siteUrl ?? `http://localhost:${config.port}`;
    process.stdout.write(
      `API_URL=${apiUrl}\nANON_KEY=${keys.anonKey}\nSERVICE_ROLE_KEY=${keys.serviceRoleKey}\n`,
    );
    return 0;
  } catch (error) {
    console.error(`npm run keys failed: ${(error as Error).message}`);
    return 1;
  } finally {
    await db.close();
  }
}

process.exitCode = await main();
