import { useQuery } from '@tanstack/react-query';
import type { PlatformMetrics } from '@common/platform-metrics';

/** The spec's retry policy, explicit because the app's query client defaults to one retry. */
export const metricsRetry = {
  retry: 3,
  retryDelay: (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000),
};

export const dashboardKeys = {
  all: ['dashboards'] as const,
  platformMetrics: () => [...dashboardKeys.all, 'platform-metrics'] as const,
};

function isPlatformMetrics(value: unknown): value is PlatformMetrics {
  const v = value as PlatformMetrics | null;
  return Boolean(
    v &&
    typeof v === 'object' &&
    v.totals &&
    typeof v.totals.users === 'number' &&
    v.estimates &&
    v.completion &&
    typeof v.generated_at === 'string',
  );
}

/** supabase-js loads on the first poll, so it never weighs on the home page's first paint. */
export async function loadSupabase() {
  const { getSupabase } = await import('@/lib/supabase');
  return getSupabase();
}

export async function fetchPlatformMetrics(): Promise<PlatformMetrics> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.rpc('get_public_platform_metrics');
  if (error) throw new Error(error.message || 'the metrics call failed');
  if (!isPlatformMetrics(data)) throw new Error('the metrics call returned an unexpected shape');
  return data;
}

/**
 * Both metrics panels read one cache entry, each polling at its own rate. Polling pauses while
 * the page is hidden (TanStack Query's default) and stops when `enabled` is false (the panel
 * is collapsed).
 */
export function usePlatformMetrics(options: { enabled: boolean; refetchInterval: number }) {
  return useQuery({
    queryKey: dashboardKeys.platformMetrics(),
    queryFn: fetchPlatformMetrics,
    enabled: options.enabled,
    refetchInterval: options.enabled ? options.refetchInterval : false,
    retry: metricsRetry.retry,
    retryDelay: metricsRetry.retryDelay,
  });
}
