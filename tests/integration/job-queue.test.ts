/**
 * The job queue (src/server/jobs, decision 0400) on the product's own database: the server
 * starts it, an enqueued job runs with its data, a cron job is sent by the scheduler, a failed
 * run is retried, and the queue's tables are not reachable through the API.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defineJob, startJobQueue, type JobQueue } from '../../src/server/jobs/job-queue';
import type { Logger } from '../../src/server/logger';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };

describe.each(databaseKinds)('job queue on %s', (kind) => {
  let server: TestServer;
  let queue: JobQueue;
  const greeted: string[] = [];
  const ticks: string[] = [];
  let flakyAttempts = 0;

  beforeAll(async () => {
    server = await startTestServer(kind);
    // A second queue on the same database, as another process would run, with test jobs.
    queue = await startJobQueue({
      db: server.deps.db,
      log: quiet,
      storage: server.deps.storage,
      config: server.deps.config,
      scheduler: true,
      pollingIntervalSeconds: 0.5,
      cronCheckSeconds: 1,
      jobs: [
        defineJob<{ who: string }>({
          name: 'test-greet',
          async run({ who }, { db }) {
            const { rows } = await db.query<{ greeting: string }>(
              "select 'hello ' || $1::text as greeting",
              [who],
            );
            greeted.push(rows[0]!.greeting);
          },
        }),
        defineJob({
          name: 'test-tick',
          cron: '* * * * *',
          async run() {
            ticks.push(new Date().toISOString());
          },
        }),
        defineJob({
          name: 'test-flaky',
          retryLimit: 2,
          retryDelaySeconds: 1,
          async run() {
            flakyAttempts += 1;
            if (flakyAttempts === 1) throw new Error('first attempt fails');
          },
        }),
      ],
    });
  });
  afterAll(async () => {
    await queue?.stop();
    await server?.stop();
  });

  it('runs an enqueued job with its data', async () => {
    await queue.send('test-greet', { who: 'Ada' });
    await vi.waitFor(() => expect(greeted).toEqual(['hello Ada']), { timeout: 20_000 });
  });

  it('sends a job on its cron schedule', async () => {
    await vi.waitFor(() => expect(ticks.length).toBeGreaterThan(0), { timeout: 20_000 });
  });

  it('retries a job whose run failed, and completes it', async () => {
    const id = await queue.send('test-flaky');
    await vi.waitFor(
      async () => {
        const { rows } = await server.deps.db.query<{ state: string; retry_count: number }>(
          'select state::text, retry_count from pgboss.job where id = $1',
          [id],
        );
        expect(rows[0]).toEqual({ state: 'completed', retry_count: 1 });
      },
      { timeout: 20_000, interval: 200 },
    );
    expect(flakyAttempts).toBe(2);
  });

  it('runs the product registry on the server: an enqueued maintenance job completes', async () => {
    const id = await server.deps.jobs.send('vacuum-analyze');
    await vi.waitFor(
      async () => {
        const { rows } = await server.deps.db.query<{ state: string }>(
          'select state::text from pgboss.job where id = $1',
          [id],
        );
        expect(rows[0]?.state).toBe('completed');
      },
      { timeout: 20_000, interval: 200 },
    );
    const { rows } = await server.deps.db.query<{ cron: string }>(
      "select cron from pgboss.schedule where name = 'vacuum-analyze'",
    );
    expect(rows).toEqual([{ cron: '40 3 * * *' }]);
  });

  it('refuses to enqueue a job nobody registered', async () => {
    await expect(queue.send('no-such-job')).rejects.toThrow('no job named "no-such-job"');
  });

  it('refuses a registry with one name twice', async () => {
    const twice = defineJob({ name: 'test-twice', run: async () => undefined });
    await expect(
      startJobQueue({
        db: server.deps.db,
        log: quiet,
        storage: server.deps.storage,
        config: server.deps.config,
        scheduler: false,
        jobs: [twice, twice],
      }),
    ).rejects.toThrow('job "test-twice" is registered twice');
  });

  it('keeps the queue out of reach of API callers', async () => {
    const { error } = await server.service().schema('pgboss').from('job').select('id');
    expect(error).not.toBeNull();
    const { error: anonError } = await server.anon().schema('pgboss').from('job').select('id');
    expect(anonError).not.toBeNull();
  });
});
