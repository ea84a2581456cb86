import type { Config } from '../config';
import type { Logger } from '../logger';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';
import type { Database } from './types';

/** PostgreSQL when DATABASE_URL is set, otherwise embedded PGlite under DATA_DIR. */
export function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'databasePoolSize' | 'dataDir' | 'embeddedFsync'>,
  log?: Pick<Logger, 'warn' | 'error'>,
): Promise<Database> {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl, config.databasePoolSize, log)
    : openPglite(config.dataDir, { fsync: config.embeddedFsync });
}
