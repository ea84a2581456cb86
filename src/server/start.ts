/**
 * Builds a running gateway from a configuration: database, migrations, keys, services.
 * Used by main.ts and by the integration tests, so both start the product the same way.
 */
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import type { ServerType } from '@hono/node-server';
import type { Config } from './config';
import { migrate } from './db/migrate';
import { openDatabase } from './db/open';
import type { Database } from './db/types';
import { createDataRoomServices, prepareDataRoom } from './data-room/services';
import { seedDemoOnFirstStart } from './learning/demo-seed';
import { seedDemoReadings } from './library/demo-readings';
import { createGateway } from './gateway/app';
import { attachRealtime } from './gateway/realtime/websocket';
import { watchEndedSessions } from './gateway/ops/ended-sessions';
import { createRequestMetrics, startMetricsFlush } from './gateway/ops/metrics';
import { createRateLimiter } from './gateway/ops/rate-limit';
import { startRateLimitSync } from './gateway/ops/rate-limit-sync';
import type { GatewayDeps } from './gateway/context';
import { loadKeySet } from './keys/key-store';
import { announceIssuedKeys, publishKeysFile } from './keys/keys-file';
import { createTokenVerifier } from './keys/verify';
import { removeAbandonedExportSpools } from './compliance/export-spool';
import { startJobQueue, type JobQueue } from './jobs/job-queue';
import { jobs } from './jobs/registry';
import { createLogger, type Logger } from './logger';
import { organizationKeyVerifier } from './public-api/organization-keys';
import { ChangeFeed } from './realtime/changes';
import { RealtimeHub } from './realtime/hub';
import { startPresenceRelay } from './realtime/presence-relay';
import { startRealtimeRelay } from './realtime/relay';
import { createBlobStore, createStorage, STALE_UPLOAD_MS } from './storage/storage';
import { readVersion } from './version';

export interface RunningServer {
  url: string;
  port: number;
  deps: GatewayDeps;
  close(): Promise<void>;
}

/**
 * Everything a gateway needs from the database before it serves: migrations, keys, the
 * storage backend, the data room's PIN and documents. The cluster's primary runs it once
 * before starting its workers.
 */
export async function prepareDatabase(
  config: Config,
  db: Database,
  log: Logger,
): Promise<Omit<GatewayDeps, 'jobs' | 'realtime' | 'realtimeChanges'>> {
  await migrate(db);
  const keys = await loadKeySet(db, config);
  announceIssuedKeys(config, keys, log);
  const verifier = organizationKeyVerifier(db, createTokenVerifier(keys, config.jwtSecret));
  const rateLimiter = createRateLimiter(config.apiRateLimitPerSecond);
  const coupons = config.billing.couponAttemptsPer10Minutes;
  const couponAttempts = createRateLimiter(coupons / 600, undefined, coupons);
  const storage = createStorage({
    db,
    blobs: await createBlobStore(config),
    keys,
    images: config.imageTransformation,
  });
  const removed = await storage.prepare();
  if (removed > 0) log.info('removed stale upload files', { removed });
  const dataRoom = createDataRoomServices({ db, config, log, storage });
  await prepareDataRoom({ db, config, log, storage }, dataRoom);
  const demo = await seedDemoOnFirstStart(config, db, log);
  if (demo.seeded) await seedDemoReadings(db, storage, log);
  return {
    config,
    db,
    keys,
    verifier,
    log,
    version: readVersion(),
    rateLimiter,
    couponAttempts,
    storage,
    dataRoom,
    metrics: createRequestMetrics(),
  };
}

/** Each process sweeps its storage directory's temp files hourly, not only at start-up. */
function startStaleUploadSweep({ storage, log }: GatewayDeps): NodeJS.Timeout {
  const timer = setInterval(() => {
    storage
      .sweepStaleUploads()
      .then((removed) => {
        if (removed > 0) log.info('removed stale upload files', { removed });
      })
      .catch((error: unknown) => {
        log.warn('could not sweep stale upload files', { error: (error as Error).message });
      });
  }, STALE_UPLOAD_MS);
  timer.unref();
  return timer;
}

export async function startServer(
  config: Config,
  options: { db?: Database; log?: Logger } = {},
): Promise<RunningServer> {
  const log = options.log ?? createLogger(config.logLevel);
  const db = options.db ?? (await openDatabase(config, log));
  let jobQueue: JobQueue | undefined;
  let realtimeRelay: { stop(): Promise<void> } | undefined;
  let presenceRelay: { stop(): Promise<void> } | undefined;
  try {
    const prepared = await prepareDatabase(config, db, log);
    // Sign-outs and API usage are shared through the database, so any number of processes
    // on one PostgreSQL database enforce them together (decisions 0070, 0071).
    const endedSessions = await watchEndedSessions({ db, log }, config.auth.accessTokenTtlSeconds);
    jobQueue = await startJobQueue({
      db,
      log,
      jobs,
      scheduler: config.jobScheduler,
      storage: prepared.storage,
      config,
    });
    const deps: GatewayDeps = {
      ...prepared,
      verifier: { ...prepared.verifier, endedSessions },
      jobs: jobQueue,
      realtime: new RealtimeHub(),
      realtimeChanges: new ChangeFeed(db, log, config.databaseUrl),
    };
    realtimeRelay = await startRealtimeRelay({ db, hub: deps.realtime, log });
    // One PGlite process holds every presence itself; processes on PostgreSQL share theirs.
    if (db.kind === 'postgres')
      presenceRelay = await startPresenceRelay({
        db,
        hub: deps.realtime,
        log,
        peerTimeoutMs: config.realtime.peerTimeoutMs,
      });
    await deps.realtimeChanges.start();
    const app = createGateway(deps);
    const metricsFlush = startMetricsFlush(deps);
    const uploadSweep = startStaleUploadSweep(deps);
    removeAbandonedExportSpools()
      .then((removed) => {
        if (removed > 0) log.info('removed abandoned export folders', { removed });
      })
      .catch((error: unknown) => {
        log.warn('could not remove abandoned export folders', { error: (error as Error).message });
      });
    // One PGlite process holds every bucket itself; nothing to share.
    const rateLimitSync =
      db.kind === 'postgres' ? startRateLimitSync(deps, deps.rateLimiter) : undefined;

    const server: ServerType = await new Promise((resolve) => {
      const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () =>
        resolve(s),
      );
    });
    const realtime = attachRealtime(server as Server, deps);
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    const url = `http://${host}:${port}`;
    // `npm run keys` reads it while this process owns the embedded data directory.
    const unpublishKeys = config.databaseUrl
      ? () => undefined
      : publishKeysFile(config.dataDir, config.siteUrl ?? url, deps.keys);

    return {
      url,
      port,
      deps,
      async close() {
        // Stop accepting connections, let in-flight requests finish, then close the database.
        await realtime.close();
        await realtimeRelay?.stop();
        await presenceRelay?.stop();
        await deps.realtimeChanges.stop();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          if ('closeIdleConnections' in server) server.closeIdleConnections();
        });
        unpublishKeys();
        clearInterval(uploadSweep);
        await metricsFlush.stop();
        await rateLimitSync?.stop();
        await endedSessions.stop();
        await jobQueue?.stop();
        await db.close();
      },
    };
  } catch (error) {
    await realtimeRelay?.stop().catch(() => undefined);
    await presenceRelay?.stop().catch(() => undefined);
    await jobQueue?.stop().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw error;
  }
}
