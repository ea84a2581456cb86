import type { Config } from '../config';
import type { DataRoomServices } from '../data-room/services';
import type { Database, DbRole, JwtClaims } from '../db/types';
import type { JobQueue } from '../jobs/job-queue';
import type { KeySet } from '../keys/key-store';
import type { TokenVerifier } from '../keys/verify';
import type { Logger } from '../logger';
import type { ChangeFeed } from '../realtime/changes';
import type { RealtimeHub } from '../realtime/hub';
import type { Storage } from '../storage/storage';
import type { RequestMetrics } from './ops/metrics';
import type { RateLimiter } from './ops/rate-limit';

/** What every gateway service is built from. */
export interface GatewayDeps {
  config: Config;
  db: Database;
  keys: KeySet;
  verifier: TokenVerifier;
  log: Logger;
  version: string;
  /** Per-key API limit; its usage is shared with other processes on PostgreSQL. */
  rateLimiter: RateLimiter;
  /**
   * Coupon codes tried per client address or user (decision 0601): a slow bucket, so a code
   * cannot be guessed in a loop. In memory per process.
   */
  couponAttempts: RateLimiter;
  /** Object storage, built once at start-up (the /storage/v1 service runs it as the caller). */
  storage: Storage;
  dataRoom: DataRoomServices;
  /**
   * This process's request counters, built once at start-up: the request log records into
   * them and the flush timer writes them to the database (`metrics.snapshot()` reads them).
   */
  metrics: RequestMetrics;
  /** The background job queue this process works (src/server/jobs/registry.ts). */
  jobs: JobQueue;
  /** This process's realtime channels (the WebSocket endpoint and the broadcast API share it). */
  realtime: RealtimeHub;
  /** Postgres changes for the realtime channels that subscribed to them. */
  realtimeChanges: ChangeFeed;
}

/** Variables set by the API-key middleware for /rest, /storage and /functions. */
export interface ApiVariables {
  claims: JwtClaims;
  role: DbRole;
  /** The raw bearer token the claims came from (never logged). */
  token: string;
  /** The API key the request presented, for per-key rate limiting. */
  apiKey: string;
  /** Set for every request by the gateway (see ops/client-address.ts). */
  clientAddress: string;
}

export type ApiEnv = { Variables: ApiVariables };
