/**
 * One structured log line per request and the per-service counters. The line holds the
 * method, the path without its query string, status, role, duration and service: never a
 * token, key, query string or body.
 */
import { createMiddleware } from 'hono/factory';
import type { Logger } from '../../logger';
import type { ApiEnv } from '../context';
import type { MetricService, RequestMetrics } from './metrics';

const prefixes: [string, MetricService][] = [
  ['/auth/v1', 'auth'],
  ['/rest/v1', 'rest'],
  ['/storage/v1', 'storage'],
  ['/functions/v1', 'functions'],
  ['/realtime/v1', 'realtime'],
];

export function serviceOf(path: string): MetricService | 'web' {
  for (const [prefix, service] of prefixes)
    if (path === prefix || path.startsWith(`${prefix}/`)) return service;
  return 'web';
}

export function requestLog(log: Logger, metrics: RequestMetrics) {
  return createMiddleware<ApiEnv>(async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const durationMs = Math.round((performance.now() - started) * 100) / 100;
      const path = c.req.path;
      const service = serviceOf(path);
      const status = c.res.status;
      log.info('request', {
        method: c.req.method,
        path,
        status,
        role: (c.get('role') as string | undefined) ?? 'none',
        duration_ms: durationMs,
        service,
      });
      if (service !== 'web') metrics.record(service, status, durationMs);
    }
  });
}
