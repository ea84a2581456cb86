import type { Config } from '../config';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';
import type { Database } from './types';

/** PostgreSQL when DATABASE_URL is set, otherwise embedded PGlite under DATA_DIR. */
export function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'databasePoolSize' | 'dataDir'>,
): Promise<Database> {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl, config.databasePoolSize)
    : openPglite(config.dataDir);
}
