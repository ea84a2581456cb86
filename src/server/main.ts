import { ConfigError, loadConfig } from './config';
import { MigrationChecksumError } from './db/migrate';
import { createLogger } from './logger';
import { startServer } from './start';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const log = createLogger(config.logLevel);
  let server;
  try {
    server = await startServer(config, { log });
  } catch (error) {
    if (error instanceof MigrationChecksumError) console.error(error.message);
    else console.error(`Lyceum could not start: ${(error as Error).message}`);
    process.exit(1);
  }
  const database =
    server.deps.db.kind === 'postgres'
      ? 'PostgreSQL (DATABASE_URL)'
      : `embedded PGlite in ${config.dataDir}`;
  log.info(`Lyceum listening on ${config.siteUrl ?? server.url} with ${database}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`Received ${signal}, shutting down`);
    const timer = setTimeout(() => {
      log.error('Shutdown took longer than 10 s, exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

void main();
