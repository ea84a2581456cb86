/**
 * The background job queue (decision 0400): pg-boss on the product's own database, in the
 * gateway process. Jobs are declared once in `registry.ts`; this module creates their queues,
 * works them, and keeps their cron schedules.
 */
import PgBoss from 'pg-boss';
import type { Config } from '../config';
import type { Database } from '../db/types';
import type { Logger } from '../logger';
import type { Storage } from '../storage/storage';

/** What a job's handler gets besides its data. */
export interface JobContext {
  db: Database;
  log: Logger;
  /** Object storage (the LE Adapt pipeline reads its uploads there). */
  storage: Storage;
  config: Config;
  /** The queue itself, for a job whose outcome starts another (a finished export's webhook). */
  jobs: Pick<JobQueue, 'send'>;
}

export interface JobDefinition<Data extends object = Record<string, never>> {
  /** Queue name: lower-case words joined by hyphens. */
  name: string;
  /** A five-field cron expression in UTC; the queue then sends the job at those times. */
  cron?: string;
  /** Attempts after the first failure (default 3). */
  retryLimit?: number;
  /** Seconds before the first retry, doubled for each further one (default 30). */
  retryDelaySeconds?: number;
  /** A run that takes longer fails and is retried (default 15 minutes). */
  expireInSeconds?: number;
  run(data: Data, context: JobContext): Promise<void>;
}

/** Keeps a job definition's data type checked where it is written, and erases it for the list. */
export function defineJob<Data extends object>(definition: JobDefinition<Data>): JobDefinition {
  return definition as unknown as JobDefinition;
}

export interface JobQueue {
  /** Enqueues one run of a registered job; resolves with its id. */
  send(name: string, data?: object): Promise<string>;
  stop(): Promise<void>;
}

export interface JobQueueOptions {
  db: Database;
  log: Logger;
  storage: Storage;
  config: Config;
  jobs: readonly JobDefinition[];
  /**
   * Whether this process sends cron jobs and runs pg-boss's maintenance. Every process works
   * jobs; in cluster mode only one schedules (decision 0400).
   */
  scheduler: boolean;
  /** How often an idle worker looks for new jobs (default 2 s). */
  pollingIntervalSeconds?: number;
  /** How often the scheduler checks the cron schedules (default 30 s). */
  cronCheckSeconds?: number;
}

const SCHEMA = 'pgboss';

/** pg-boss wraps DDL and maintenance in `BEGIN; …; COMMIT;` sent as one string. */
const wrappedInTransaction = /^\s*BEGIN;([\s\S]*?);?\s*COMMIT;\s*$/;

/**
 * pg-boss's database interface over ours, so the queue shares the product's PGlite session or
 * PostgreSQL pool. Its multi-statement transactions run through `transaction()` instead of a
 * raw BEGIN: on PGlite a raw BEGIN would pull other callers' queries in (and on a pool, a
 * failure would hand back a connection stuck in an aborted transaction).
 */
export function pgBossDatabase(db: Database): PgBoss.Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      const wrapped = wrappedInTransaction.exec(text);
      if (wrapped) {
        await db.transaction((tx) => tx.exec(wrapped[1]!));
        return { rows: [] };
      }
      return db.query(text, values ?? []);
    },
  };
}

function uniqueNames(jobs: readonly JobDefinition[]): Set<string> {
  const names = new Set<string>();
  for (const job of jobs) {
    if (names.has(job.name)) throw new Error(`job "${job.name}" is registered twice`);
    names.add(job.name);
  }
  return names;
}

/** Creates each job's queue, or brings an existing one's settings up to date. */
async function ensureQueues(boss: PgBoss, jobs: readonly JobDefinition[]): Promise<void> {
  for (const job of jobs) {
    const queue = {
      name: job.name,
      retryLimit: job.retryLimit ?? 3,
      retryDelay: job.retryDelaySeconds ?? 30,
      retryBackoff: true,
      expireInSeconds: job.expireInSeconds ?? 15 * 60,
    };
    await boss.createQueue(job.name, queue);
    // A queue made by an earlier release keeps its old settings unless told otherwise.
    await boss.updateQueue(job.name, queue);
  }
}

/**
 * Installs pg-boss and creates every queue, working none of them. Cluster mode's primary runs
 * it before forking: pg-boss's `create_queue` inserts the queue's row and then attaches its
 * partition, so two workers creating the same queues at once can deadlock; afterwards each
 * worker's `createQueue` finds the row and changes nothing.
 */
export async function prepareJobQueues(db: Database, jobs: readonly JobDefinition[]) {
  uniqueNames(jobs);
  const boss = new PgBoss({
    db: pgBossDatabase(db),
    schema: SCHEMA,
    schedule: false,
    supervise: false,
  });
  await boss.start();
  try {
    await ensureQueues(boss, jobs);
  } finally {
    await boss.stop({ graceful: false, wait: true, close: false });
  }
}

export async function startJobQueue(options: JobQueueOptions): Promise<JobQueue> {
  const { db, log, jobs, scheduler, storage, config } = options;
  const names = uniqueNames(jobs);

  const boss = new PgBoss({
    db: pgBossDatabase(db),
    schema: SCHEMA,
    schedule: scheduler,
    supervise: scheduler,
    ...(options.cronCheckSeconds
      ? {
          cronMonitorIntervalSeconds: options.cronCheckSeconds,
          cronWorkerIntervalSeconds: options.cronCheckSeconds,
        }
      : {}),
  });
  boss.on('error', (error: Error) => log.error('job queue error', { error: error.message }));
  await boss.start();

  // Each queue's worker in this process: a send wakes it instead of waiting for its next poll.
  const workers = new Map<string, string>();
  async function send(name: string, data: object = {}): Promise<string> {
    if (!names.has(name)) throw new Error(`no job named "${name}" is registered`);
    const id = await boss.send(name, data);
    if (!id) throw new Error(`job "${name}" was not queued`);
    const worker = workers.get(name);
    if (worker) boss.notifyWorker(worker);
    return id;
  }
  await ensureQueues(boss, jobs);
  for (const job of jobs) {
    // Set once work() answers; a job that finishes before that needs no wake-up.
    let workerId = '';
    workerId = await boss.work(
      job.name,
      { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
      async ([item]) => {
        if (!item) return;
        const started = Date.now();
        try {
          await job.run(item.data as never, { db, log, storage, config, jobs: { send } });
          log.info('job done', { job: job.name, id: item.id, ms: Date.now() - started });
        } catch (error) {
          log.warn('job failed', { job: job.name, id: item.id, error: (error as Error).message });
          throw error;
        } finally {
          // More may be waiting: look again at once rather than after a polling interval.
          boss.notifyWorker(workerId);
        }
      },
    );
    workers.set(job.name, workerId);
  }

  if (scheduler) {
    // A job whose cron was taken out of the registry stops being sent. Schedules of names this
    // process does not know are left alone: another process (a newer release) may own them.
    for (const job of jobs) {
      if (job.cron) await boss.schedule(job.name, job.cron, {}, { tz: 'UTC' });
      else await boss.unschedule(job.name);
    }
  }

  return {
    send,
    async stop() {
      // Jobs in flight get 10 s to finish; one cut short is retried by whichever process works
      // the queue next (its run expires).
      await boss.stop({ graceful: true, timeout: 10_000, wait: true, close: false });
    },
  };
}
