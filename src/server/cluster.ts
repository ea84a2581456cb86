/**
 * Cluster mode (`WORKERS=N` on PostgreSQL, decision 0072): the primary process prepares the
 * database once (migrations, keys, data room), then forks N workers that each run the whole
 * gateway and share one listening port through Node's `cluster` module. The primary serves
 * no requests: it restarts a worker that dies, and on SIGTERM or SIGINT asks every worker to
 * drain and waits for them.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config';
import { openDatabase } from './db/open';
import type { Logger } from './logger';
import { prepareJobQueues } from './jobs/job-queue';
import { jobs } from './jobs/registry';
import { prepareDatabase } from './start';

/** Why this configuration cannot run as a cluster, or undefined when it can. */
export function clusterConfigProblem(config: Pick<Config, 'workers' | 'databaseUrl'>) {
  if (config.workers > 1 && !config.databaseUrl) {
    return (
      `WORKERS=${config.workers} needs PostgreSQL: the embedded PGlite database belongs to ` +
      `one process. Set DATABASE_URL to a PostgreSQL server, or unset WORKERS.`
    );
  }
  return undefined;
}

/** What a worker tells the primary once it accepts requests. */
export interface WorkerListening {
  type: 'listening';
  url: string;
}

function isListening(message: unknown): message is WorkerListening {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { type?: unknown }).type === 'listening'
  );
}

/** The logger of one worker: every line says which worker wrote it. */
export function workerLogger(log: Logger, worker: number): Logger {
  return {
    debug: (message, fields) => log.debug(message, { worker, ...fields }),
    info: (message, fields) => log.info(message, { worker, ...fields }),
    warn: (message, fields) => log.warn(message, { worker, ...fields }),
    error: (message, fields) => log.error(message, { worker, ...fields }),
  };
}

/** A worker that ran at least this long before dying is restarted at once. */
const HEALTHY_RUN_MS = 30_000;
const MAX_RESTART_DELAY_MS = 30_000;
/** Workers drain for up to 10 s each (main.ts); then the primary stops waiting. */
const SHUTDOWN_TIMEOUT_MS = 15_000;

/** Delay before restarting after `quickCrashes` consecutive deaths soon after start. */
export function restartDelayMs(quickCrashes: number): number {
  if (quickCrashes <= 1) return 0;
  return Math.min(MAX_RESTART_DELAY_MS, 500 * 2 ** (quickCrashes - 1));
}

/**
 * Runs the primary until it is told to stop; resolves with the process exit code.
 */
export async function runPrimary(config: Config, log: Logger): Promise<number> {
  const db = await openDatabase(config, log);
  try {
    await prepareDatabase(config, db, log);
    await prepareJobQueues(db, jobs);
  } finally {
    await db.close();
  }

  return new Promise<number>((resolve) => {
    const startedAt = new Map<number, number>();
    let ready = 0;
    let starting = true;
    let stopping = false;
    let exitCode = 0;
    let quickCrashes = 0;
    let shutdownTimer: NodeJS.Timeout | undefined;
    const finish = (code: number) => {
      clearTimeout(shutdownTimer);
      resolve(code);
    };

    /** Worker id → whether it is the one that sends cron jobs (decision 0400). */
    const schedulers = new Map<number, boolean>();
    const fork = (scheduler: boolean) => {
      const worker = cluster.fork({ JOB_SCHEDULER: String(scheduler && config.jobScheduler) });
      startedAt.set(worker.id, Date.now());
      schedulers.set(worker.id, scheduler);
      worker.on('message', (message: unknown) => {
        if (!isListening(message)) return;
        log.info(`worker ${worker.id} (pid ${worker.process.pid}) listening`, {
          worker: worker.id,
          pid: worker.process.pid,
        });
        if (!starting) return;
        ready += 1;
        if (ready === config.workers) {
          starting = false;
          log.info(
            `Lyceum listening on ${config.siteUrl ?? message.url} with PostgreSQL (DATABASE_URL), ` +
              `${config.workers} worker processes`,
          );
        }
      });
    };

    const living = (): Worker[] => Object.values(cluster.workers ?? {}).filter(Boolean) as Worker[];

    const stop = (reason: string, code: number) => {
      if (stopping) return;
      stopping = true;
      exitCode = code;
      log.info(`${reason}, stopping ${living().length} workers`);
      shutdownTimer = setTimeout(() => {
        log.error('Workers took longer than 15 s to stop, killing them');
        for (const worker of living()) worker.process.kill('SIGKILL');
        finish(1);
      }, SHUTDOWN_TIMEOUT_MS);
      if (living().length === 0) finish(exitCode);
      for (const worker of living()) worker.process.kill('SIGTERM');
    };

    cluster.on('exit', (worker, code, signal) => {
      const ranMs = Date.now() - (startedAt.get(worker.id) ?? Date.now());
      startedAt.delete(worker.id);
      const scheduler = schedulers.get(worker.id) ?? false;
      schedulers.delete(worker.id);
      if (stopping) {
        if (code !== 0 && signal !== 'SIGTERM') exitCode = 1;
        if (living().length === 0) {
          log.info('All workers stopped');
          finish(exitCode);
        }
        return;
      }
      const fields = { worker: worker.id, pid: worker.process.pid, code, signal };
      if (starting) {
        // A worker that cannot start (database unreachable, port taken) will not start on a
        // retry either: stop with its error (printed by the worker) instead of looping.
        log.error(`worker ${worker.id} exited during start-up`, fields);
        stop('A worker could not start', 1);
        return;
      }
      quickCrashes = ranMs < HEALTHY_RUN_MS ? quickCrashes + 1 : 1;
      const delay = restartDelayMs(quickCrashes);
      log.error(`worker ${worker.id} exited; starting a new one`, {
        ...fields,
        restartInMs: delay,
      });
      setTimeout(() => {
        if (!stopping) fork(scheduler);
      }, delay);
    });

    process.on('SIGINT', () => stop('Received SIGINT', 0));
    process.on('SIGTERM', () => stop('Received SIGTERM', 0));
    for (let i = 0; i < config.workers; i++) fork(i === 0);
  });
}
