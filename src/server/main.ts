import cluster from 'node:cluster';
import { clusterConfigProblem, runPrimary, workerLogger } from './cluster';
import { ConfigError, loadConfig, type Config } from './config';
import { MigrationChecksumError } from './db/migrate';
import { createLogger, type Logger } from './logger';
import { startServer } from './start';

function startFailure(error: unknown): string {
  if (error instanceof MigrationChecksumError) return error.message;
  return `Lyceum could not start: ${(error as Error).message}`;
}

/** Serves until SIGINT or SIGTERM (or, in a worker, until the primary is gone), then drains. */
async function serve(config: Config, log: Logger, worker: boolean) {
  let server;
  try {
    server = await startServer(config, { log });
  } catch (error) {
    console.error(startFailure(error));
    process.exit(1);
  }
  if (worker) {
    process.send?.({ type: 'listening', url: config.siteUrl ?? server.url });
  } else {
    const database =
      server.deps.db.kind === 'postgres'
        ? 'PostgreSQL (DATABASE_URL)'
        : `embedded PGlite in ${config.dataDir}`;
    log.info(`Lyceum listening on ${config.siteUrl ?? server.url} with ${database}`);
  }

  let stopping = false;
  const stop = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${reason}, shutting down`);
    const timer = setTimeout(() => {
      log.error('Shutdown took longer than 10 s, exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('Received SIGINT'));
  process.on('SIGTERM', () => void stop('Received SIGTERM'));
  // A worker whose primary died (kill -9) must not keep serving on its own.
  if (worker) process.on('disconnect', () => void stop('Primary process gone'));
}

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

  if (cluster.isWorker) {
    await serve(config, workerLogger(log, cluster.worker!.id), true);
    return;
  }
  if (config.workers === 1) {
    await serve(config, log, false);
    return;
  }
  const problem = clusterConfigProblem(config);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
  let code;
  try {
    code = await runPrimary(config, log);
  } catch (error) {
    console.error(startFailure(error));
    process.exit(1);
  }
  process.exit(code);
}

void main();
