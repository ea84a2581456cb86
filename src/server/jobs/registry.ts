/**
 * Every background job the product runs, in one list. To add one, append a `defineJob({...})`
 * here: a name, optionally a cron schedule (UTC), and `run`, which does the work (usually one
 * SQL function call). Enqueue a run from a service with `deps.jobs.send(name, data)`.
 */
import { ADAPT_JOB } from '../adapt/adapt-jobs';
import {
  EXPORT_JOB,
  WEBHOOK_ATTEMPTS,
  WEBHOOK_JOB,
  WEBHOOK_RETRY_DELAY_SECONDS,
  runExportJob,
  runWebhookDelivery,
} from '../adapt/outputs';
import { runAdaptJob } from '../adapt/pipeline';
import { createAiProvider } from '../ai/provider';
import { deleteInactiveAnonymousUsers } from '../compliance/anonymous-cleanup';
import { buildExport, eraseAccount } from '../compliance/personal-data';
import { defineJob, type JobDefinition } from './job-queue';

export const jobs: readonly JobDefinition[] = [
  defineJob({
    name: 'security-incident-detection',
    // Failed sign-ins, refresh-token reuse, PIN brute force, mass export (decision 0403).
    cron: '*/5 * * * *',
    retryLimit: 0,
    async run(_data, { db, log }) {
      const { rows } = await db.query<{ raised: number }>(
        'select public.detect_security_incident() as raised',
      );
      if (rows[0]!.raised > 0) log.warn('security incidents raised', { count: rows[0]!.raised });
    },
  }),
  defineJob({
    name: 'retention-cleanup',
    // Deletes or anonymises what data_retention_policies says has expired (decision 0402).
    cron: '15 3 * * *',
    async run(_data, { db, log }) {
      const { rows } = await db.query<{
        table_name: string;
        rows_affected: number;
        error: string | null;
      }>('select table_name, rows_affected, error from public.cleanup_expired_data()');
      for (const row of rows) {
        if (row.error)
          log.warn('retention cleanup failed', { table: row.table_name, error: row.error });
      }
      log.info('retention cleanup done', {
        rows: rows.reduce((sum, row) => sum + row.rows_affected, 0),
        tables: rows.length,
      });
    },
  }),
  defineJob<{ exportId: string }>({
    name: 'privacy-export',
    // The zip for an access or portability request (decision 0421).
    retryLimit: 0,
    async run({ exportId }, context) {
      const built = await buildExport({ db: context.db, storage: context.storage }, exportId);
      context.log.info('personal data export ready', {
        exportId,
        bytes: built.sizeBytes,
        snapshotMs: Math.round(built.snapshotMs),
      });
    },
  }),
  defineJob<{ requestId: string }>({
    name: 'privacy-erasure',
    // Erases the account an erasure request concerns (decision 0421).
    retryLimit: 0,
    async run({ requestId }, context) {
      const erased = await eraseAccount({ db: context.db, storage: context.storage }, requestId);
      context.log.info('account erased', { requestId, files: erased.files });
    },
  }),
  defineJob({
    name: 'reset-monthly-quotas',
    // Usage allowances start afresh on the first of each month, UTC (decision 0202).
    cron: '5 0 1 * *',
    async run(_data, { db, log }) {
      const { rows } = await db.query<{ reset: number }>(
        'select public.reset_monthly_quotas() as reset',
      );
      log.info('monthly quotas reset', { counters: rows[0]!.reset });
    },
  }),
  defineJob({
    name: 'anonymous-users-cleanup',
    // Anonymous accounts idle for AUTH_ANONYMOUS_USERS_INACTIVE_DAYS go, with their data, as
    // an erasure takes an account (decision 0059). Runs whether or not sign-ins are on now:
    // accounts made while they were stay until cleaned.
    cron: '25 3 * * *',
    async run(_data, { db, log, storage, config }) {
      const done = await deleteInactiveAnonymousUsers(
        { db, storage },
        { inactiveDays: config.auth.anonymousInactiveDays },
      );
      for (const failure of done.failed)
        log.warn('anonymous user cleanup failed', { userId: failure.userId, error: failure.error });
      log.info('inactive anonymous users deleted', { users: done.deleted, files: done.files });
    },
  }),
  defineJob({
    name: 'vacuum-analyze',
    // PGlite has no autovacuum (reference/pglite-notes.md); PostgreSQL runs its own.
    cron: '40 3 * * *',
    async run(_data, { db, log }) {
      if (db.kind !== 'pglite') return;
      await db.exec('vacuum analyze');
      log.info('embedded database vacuumed and analysed');
    },
  }),
  defineJob<{ jobId: string }>({
    name: ADAPT_JOB,
    // One LE Adapt upload through its stages (decision 0501). A stage's failure is written on
    // the job and ends the run normally; a retry here only follows a crash or an expired run,
    // and starts again at the first stage that is not done.
    retryLimit: 2,
    retryDelaySeconds: 5,
    expireInSeconds: 30 * 60,
    async run({ jobId }, { db, log, storage, config }) {
      await runAdaptJob({ db, log, storage, ai: createAiProvider(config.ai) }, jobId);
    },
  }),
  defineJob<{ jobId: string; siteUrl?: string }>({
    name: EXPORT_JOB,
    // An approved LE Adapt lesson rendered into every format and stored (decision 0512); the
    // narration is CPU work of seconds to minutes.
    retryLimit: 1,
    retryDelaySeconds: 10,
    expireInSeconds: 30 * 60,
    async run({ jobId, siteUrl }, { db, log, storage, jobs, config }) {
      await runExportJob(
        { db, log, storage, jobs, siteUrl, narration: config.adaptNarration },
        jobId,
      );
    },
  }),
  defineJob<{ deliveryId: string }>({
    name: WEBHOOK_JOB,
    // One attempt per run; a retryable failure throws and the queue tries again after 30 s,
    // 60 s, 120 s, 240 s (decision 0514).
    retryLimit: WEBHOOK_ATTEMPTS - 1,
    retryDelaySeconds: WEBHOOK_RETRY_DELAY_SECONDS,
    expireInSeconds: 120,
    async run({ deliveryId }, { db, log, config }) {
      await runWebhookDelivery({ db, log, config }, deliveryId);
    },
  }),
];
