import { describe, expect, it, vi } from 'vitest';
import type { Database } from '../../db/types';
import { createLogger } from '../../logger';
import { createRequestMetrics, latencyBucket, percentile, startMetricsFlush } from './metrics';

describe('request metrics', () => {
  it('computes nearest-rank percentiles', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNull();
  });

  it('groups by minute and service and counts 5xx as errors', () => {
    const metrics = createRequestMetrics();
    const minute = Date.UTC(2026, 0, 1, 12, 30);
    metrics.record('rest', 200, 4, minute + 1000);
    metrics.record('rest', 503, 10, minute + 2000);
    metrics.record('rest', 404, 6, minute + 3000);
    metrics.record('storage', 200, 2, minute + 61_000);
    expect(metrics.snapshot()).toEqual([
      {
        minute: '2026-01-01T12:30:00.000Z',
        service: 'rest',
        requests: 3,
        errors: 1,
        p50_ms: 6,
        p99_ms: 10,
      },
      {
        minute: '2026-01-01T12:31:00.000Z',
        service: 'storage',
        requests: 1,
        errors: 0,
        p50_ms: 2,
        p99_ms: 2,
      },
    ]);
  });

  it('keeps a bounded sample however many requests a minute has', () => {
    const metrics = createRequestMetrics(() => 0.5);
    const at = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 20_000; i++) metrics.record('functions', 200, i % 100, at);
    const [row] = metrics.snapshot();
    expect(row).toMatchObject({ requests: 20_000, p50_ms: expect.any(Number) });
  });
});

describe('latency histogram', () => {
  it('has eight buckets per doubling from 0.01 ms, the last one open-ended', () => {
    expect(latencyBucket(0)).toBe(0);
    expect(latencyBucket(0.01)).toBe(0);
    expect(latencyBucket(0.0101)).toBe(1);
    expect(latencyBucket(0.02)).toBe(8);
    expect(latencyBucket(10.24)).toBe(80);
    expect(latencyBucket(10.3)).toBe(81);
    expect(latencyBucket(Number.POSITIVE_INFINITY)).toBe(219);
    expect(latencyBucket(Number.NaN)).toBe(0);
  });

  it('flushes each latency once, in its bucket, beside the counts', async () => {
    const writes: unknown[][] = [];
    const db = {
      async query(_sql: string, params: unknown[]) {
        writes.push(params);
        return { rows: [], rowCount: 1, fields: [] };
      },
    } as unknown as Database;
    const metrics = createRequestMetrics();
    metrics.record('auth', 200, 0.02);
    metrics.record('auth', 200, 0.02);
    metrics.record('auth', 200, 0.005);
    await metrics.flush(db);
    const histogram = writes[0]![4] as number[];
    expect(histogram).toHaveLength(9);
    expect(histogram[0]).toBe(1);
    expect(histogram[8]).toBe(2);
    expect(histogram.reduce((a, b) => a + b, 0)).toBe(3);
    metrics.record('auth', 200, 0.02);
    await metrics.flush(db);
    expect((writes[1]![4] as number[]).reduce((a, b) => a + b, 0)).toBe(1);
    expect(writes[1]!.slice(1, 4)).toEqual(['auth', 1, 0]);
  });
});

describe('metrics flush timer', () => {
  it('writes increments on its interval and once more on stop, and survives a failed write', async () => {
    const writes: unknown[][] = [];
    let failNext = false;
    const db = {
      async query(_sql: string, params: unknown[]) {
        if (failNext) {
          failNext = false;
          throw new Error('database unavailable');
        }
        writes.push(params);
        return { rows: [], rowCount: 1, fields: [] };
      },
    } as unknown as Database;
    const warnings: string[] = [];
    const log = { ...createLogger('silent'), warn: (message: string) => warnings.push(message) };
    const metrics = createRequestMetrics();
    const flusher = startMetricsFlush({ db, log, metrics }, 20);

    metrics.record('rest', 200, 5);
    metrics.record('rest', 500, 7);
    await vi.waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]!.slice(1, 4)).toEqual(['rest', 2, 1]);

    failNext = true;
    metrics.record('rest', 200, 3);
    await vi.waitFor(() => expect(warnings).toEqual(['request metrics flush failed']));

    await flusher.stop();
    // The failed increment is written by a later flush, not lost or doubled.
    expect(writes.at(-1)!.slice(1, 4)).toEqual(['rest', 1, 0]);
  });
});
