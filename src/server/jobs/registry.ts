/**
 * Every background job the product runs, in one list. To add one, append a `defineJob({...})`
 * here: a name, optionally a cron schedule (UTC), and `run`, which does the work (usually one
 * SQL function call). Enqueue a run from a service with `deps.jobs.send(name, data)`.
 */
import { defineJob, type JobDefinition } from './job-queue';

export const jobs: readonly JobDefinition[] = [
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
];
