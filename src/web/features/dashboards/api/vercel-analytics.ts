import { useQuery } from '@tanstack/react-query';
import type { VercelAnalytics, VercelDeployment, VercelProject } from '@common/vercel-analytics';
import { loadSupabase, metricsRetry } from './platform-metrics';

/**
 * The server's answer when it has no VERCEL_TOKEN: an answer, not an error. `setup` (how to
 * configure it) comes only to the service role and signed-in admins.
 */
export interface HostingNotConfigured {
  configured: false;
  message: string;
  setup?: string;
}

export function isNotConfigured(data: object | undefined): data is HostingNotConfigured {
  return (data as { configured?: unknown } | undefined)?.configured === false;
}

/** Polls every `ms` while the panel is open, and never again once the server said "not configured". */
function pollUnlessNotConfigured(enabled: boolean, ms: number) {
  return (query: { state: { data?: object } }) =>
    enabled && !isNotConfigured(query.state.data) ? ms : false;
}

interface FunctionErrorBody {
  error?: string;
  code?: string;
}

async function invoke<T>(searchParams: URLSearchParams): Promise<T & { message?: string }> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.functions.invoke<T & { message?: string }>(
    'vercel-analytics',
    { body: { searchParams: searchParams.toString() } },
  );
  if (error) {
    // FunctionsHttpError carries the function's response; checked by shape so this module
    // does not import supabase-js eagerly.
    const context = (error as { context?: unknown }).context;
    if (context instanceof Response) {
      const response = context;
      const body = (await response.json().catch(() => ({}))) as FunctionErrorBody;
      const message = body.error ?? `the analytics function answered HTTP ${response.status}`;
      throw new Error(message);
    }
    throw new Error(error.message);
  }
  if (!data) throw new Error('the analytics function returned nothing');
  return data;
}

export const vercelKeys = {
  all: ['dashboards', 'vercel'] as const,
  projects: () => [...vercelKeys.all, 'projects'] as const,
  deployments: (limit: number) => [...vercelKeys.all, 'deployments', limit] as const,
  analytics: (projectId: string) => [...vercelKeys.all, 'analytics', projectId] as const,
};

export function useVercelProjects(enabled: boolean) {
  return useQuery({
    queryKey: vercelKeys.projects(),
    queryFn: () =>
      invoke<{ projects: VercelProject[] } & Partial<HostingNotConfigured>>(
        new URLSearchParams({ endpoint: 'projects' }),
      ),
    enabled,
    refetchInterval: pollUnlessNotConfigured(enabled, 60_000),
    retry: metricsRetry.retry,
    retryDelay: metricsRetry.retryDelay,
  });
}

export function useVercelDeployments(enabled: boolean, limit = 5) {
  return useQuery({
    queryKey: vercelKeys.deployments(limit),
    queryFn: async () =>
      (
        await invoke<{ deployments: VercelDeployment[] }>(
          new URLSearchParams({ endpoint: 'deployments', limit: String(limit) }),
        )
      ).deployments,
    enabled,
    refetchInterval: enabled ? 30_000 : false,
    retry: metricsRetry.retry,
    retryDelay: metricsRetry.retryDelay,
  });
}

export function useVercelAnalytics(projectId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: vercelKeys.analytics(projectId ?? ''),
    queryFn: async () =>
      (
        await invoke<{ analytics: VercelAnalytics }>(
          new URLSearchParams({ endpoint: 'analytics', projectId: projectId ?? '' }),
        )
      ).analytics,
    enabled: enabled && Boolean(projectId),
    refetchInterval: enabled ? 30_000 : false,
    retry: metricsRetry.retry,
    retryDelay: metricsRetry.retryDelay,
  });
}
