/**
 * Request counters per service and minute, kept in memory and flushed to
 * platform.request_metrics every 10 s (and on close), so no request waits on a metrics write.
 * Counts and a latency histogram are flushed as increments, so several processes add up and
 * the stored percentiles are the whole cluster's (decisions 0022, 0073); `snapshot()` gives
 * this process's exact percentiles from its samples of the minute.
 */
import type { Database } from '../../db/types';
import type { Logger } from '../../logger';

export const metricServices = ['auth', 'rest', 'storage', 'functions', 'realtime'] as const;
export type MetricService = (typeof metricServices)[number];

/** Enough samples for a stable p99 while bounding memory per minute and service. */
const MAX_SAMPLES = 5000;
const MINUTE_MS = 60_000;

/** Histogram buckets as in migration 0072: eight per doubling from 0.01 ms, up to ~30 min. */
const BUCKET_BASE_MS = 0.01;
const BUCKETS_PER_DOUBLING = 8;
export const LATENCY_BUCKETS = 220;

/** The 0-based histogram bucket of a latency (bucket k holds up to 0.01 ms × 2^(k/8)). */
export function latencyBucket(ms: number): number {
  if (!(ms > BUCKET_BASE_MS)) return 0;
  const k = Math.ceil(BUCKETS_PER_DOUBLING * Math.log2(ms / BUCKET_BASE_MS));
  return Math.min(LATENCY_BUCKETS - 1, k);
}

interface MinuteStats {
  minute: number;
  service: MetricService;
  requests: number;
  errors: number;
  samples: number[];
  /** Latencies recorded since the last successful flush, per bucket. */
  unflushedHistogram: number[];
  flushedRequests: number;
  flushedErrors: number;
}

export interface MetricsRow {
  minute: string;
  service: MetricService;
  requests: number;
  errors: number;
  p50_ms: number | null;
  p99_ms: number | null;
}

export interface RequestMetrics {
  /** Counts one finished request; 5xx statuses count as errors. */
  record(service: MetricService, status: number, durationMs: number, at?: number): void;
  /** The minutes held in memory (the current one and any not yet flushed), oldest first. */
  snapshot(): MetricsRow[];
  /** Writes what changed since the last flush; keeps it for the next try if the write fails. */
  flush(db: Database): Promise<void>;
}

export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function createRequestMetrics(random: () => number = Math.random): RequestMetrics {
  const minutes = new Map<string, MinuteStats>();

  function row(stats: MinuteStats): MetricsRow {
    const sorted = [...stats.samples].sort((a, b) => a - b);
    return {
      minute: new Date(stats.minute).toISOString(),
      service: stats.service,
      requests: stats.requests,
      errors: stats.errors,
      p50_ms: percentile(sorted, 50),
      p99_ms: percentile(sorted, 99),
    };
  }

  return {
    record(service, status, durationMs, at = Date.now()) {
      const minute = Math.floor(at / MINUTE_MS) * MINUTE_MS;
      const key = `${minute}|${service}`;
      let stats = minutes.get(key);
      if (!stats) {
        stats = {
          minute,
          service,
          requests: 0,
          errors: 0,
          samples: [],
          unflushedHistogram: [],
          flushedRequests: 0,
          flushedErrors: 0,
        };
        minutes.set(key, stats);
      }
      stats.requests += 1;
      if (status >= 500) stats.errors += 1;
      const bucket = latencyBucket(durationMs);
      while (stats.unflushedHistogram.length <= bucket) stats.unflushedHistogram.push(0);
      stats.unflushedHistogram[bucket]! += 1;
      // Reservoir sampling keeps a uniform sample once the minute has more requests than slots.
      if (stats.samples.length < MAX_SAMPLES) stats.samples.push(durationMs);
      else {
        const slot = Math.floor(random() * stats.requests);
        if (slot < MAX_SAMPLES) stats.samples[slot] = durationMs;
      }
    },

    snapshot() {
      return [...minutes.values()].sort((a, b) => a.minute - b.minute).map(row);
    },

    async flush(db) {
      const pending = [...minutes.values()].filter(
        (s) => s.requests > s.flushedRequests || s.errors > s.flushedErrors,
      );
      for (const stats of pending) {
        const requests = stats.requests;
        const errors = stats.errors;
        const histogram = [...stats.unflushedHistogram];
        await db.query('select platform.add_request_metrics($1::timestamptz, $2, $3, $4, $5)', [
          new Date(stats.minute).toISOString(),
          stats.service,
          requests - stats.flushedRequests,
          errors - stats.flushedErrors,
          histogram,
        ]);
        stats.flushedRequests = requests;
        stats.flushedErrors = errors;
        // Requests recorded while the write was under way stay for the next flush.
        histogram.forEach((count, bucket) => (stats.unflushedHistogram[bucket]! -= count));
      }
      // Older minutes are complete once flushed; keep only the current one in memory.
      const current = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS;
      for (const [key, stats] of minutes) {
        const done =
          stats.requests === stats.flushedRequests && stats.errors === stats.flushedErrors;
        if (stats.minute < current && done) minutes.delete(key);
      }
    },
  };
}

export const METRICS_FLUSH_INTERVAL_MS = 10_000;

/** Flushes every 10 s; `stop()` clears the timer and flushes one last time. */
export function startMetricsFlush(
  deps: { db: Database; log: Logger; metrics: RequestMetrics },
  intervalMs = METRICS_FLUSH_INTERVAL_MS,
): { stop(): Promise<void> } {
  const { metrics } = deps;
  let running: Promise<void> = Promise.resolve();
  const flush = () => {
    running = running
      .then(() => metrics.flush(deps.db))
      .catch((error: unknown) =>
        deps.log.warn('request metrics flush failed', { error: (error as Error).message }),
      );
    return running;
  };
  const timer = setInterval(() => void flush(), intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
