/**
 * What leaves LE Adapt (decisions 0512–0516): a job's exports, publishing to a course, webhook
 * deliveries, and an organization's webhook endpoint. Reads through REST under row-level
 * security (the endpoint without its secret, the delivery log with its attempts); actions
 * through /functions/v1/adapt-outputs.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getClientConfig } from '@/lib/client-config';
import { downloadBlob } from '@/lib/download';
import { getSupabase } from '@/lib/supabase';
import type { ExportListing, WebhookEvent } from '@common/adapt-outputs';
import { adaptKeys, functionError } from './adapt-jobs';

export interface WebhookEndpoint {
  organization_id: string;
  url: string;
  active: boolean;
  events: WebhookEvent[];
  updated_at: string;
}

export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed' | 'refused';

export interface WebhookAttempt {
  attempt: number;
  attempted_at: string;
  response_code: number | null;
  error: string | null;
  duration_ms: number;
}

export interface WebhookDelivery {
  id: string;
  job_id: string | null;
  event: WebhookEvent | 'webhook.test';
  url: string;
  status: DeliveryStatus;
  attempts: number;
  response_code: number | null;
  error: string | null;
  created_at: string;
  next_attempt_at: string | null;
  delivered_at: string | null;
  adapt_jobs: { title: string } | null;
  adapt_webhook_attempts: WebhookAttempt[];
}

export interface TeachableCourse {
  id: string;
  title: string;
}

export const outputKeys = {
  exports: (jobId: string) => [...adaptKeys.all, 'exports', jobId] as const,
  endpoint: (organizationId: string) => [...adaptKeys.all, 'endpoint', organizationId] as const,
  deliveries: (scope: { organizationId?: string; jobId?: string }) =>
    [...adaptKeys.all, 'deliveries', scope] as const,
  courses: (organizationId: string | null) =>
    [...adaptKeys.all, 'courses', organizationId] as const,
};

async function invoke<T>(path: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', body?: object) {
  const client = await getSupabase();
  const { data, error } = await client.functions.invoke<T>(`adapt-outputs/${path}`, {
    method,
    ...(body ? { body } : {}),
  });
  if (error) throw await functionError(error);
  return data as T;
}

const exportsRunning = (listing: ExportListing | undefined) =>
  listing?.status === 'queued' || listing?.status === 'running';

/** The job's exports with fresh download links, polled while they are being made. */
export function useExports(jobId: string, enabled: boolean) {
  return useQuery({
    queryKey: outputKeys.exports(jobId),
    queryFn: () => invoke<ExportListing>(`jobs/${jobId}/exports`, 'GET'),
    enabled,
    refetchInterval: (query) => (exportsRunning(query.state.data) ? 1500 : false),
  });
}

export function useRequestExports(jobId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => invoke<{ status: string }>(`jobs/${jobId}/exports`, 'POST', {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: outputKeys.exports(jobId) }),
  });
}

/**
 * Downloads one export through a link made now (links last a quarter of an hour, and the page
 * may have been open longer) and saves it; a refusal or a lost connection becomes an error.
 */
export async function downloadExport(jobId: string, name: string): Promise<void> {
  const [listing, config] = await Promise.all([
    invoke<ExportListing>(`jobs/${jobId}/exports`, 'GET'),
    getClientConfig(),
  ]);
  const file = listing.files.find((f) => f.name === name);
  if (!file?.url) throw new Error(`${name} is not among the exports any more; prepare them again.`);
  const response = await fetch(`${config.apiUrl}${file.url}`).catch(() => null);
  if (!response) throw new Error(`Could not download ${name}: the server could not be reached.`);
  if (!response.ok) {
    throw new Error(`Could not download ${name}: the server answered HTTP ${response.status}.`);
  }
  downloadBlob(name, await response.blob());
}

/** Courses the user may publish into: those they teach in this workspace. */
export function useTeachableCourses(organizationId: string | null) {
  return useQuery({
    queryKey: outputKeys.courses(organizationId),
    queryFn: async (): Promise<TeachableCourse[]> => {
      const client = await getSupabase();
      let query = client.rpc('taught_courses', { search: '' }).select('id, title');
      query =
        organizationId === null
          ? query.is('organization_id', null)
          : query.eq('organization_id', organizationId);
      const { data, error } = await query.order('title').limit(200);
      if (error) throw new Error(error.message);
      return data as unknown as TeachableCourse[];
    },
  });
}

export interface Publication {
  id: string;
  lesson_id: string;
  course_id: string;
  questions: number;
}

export function usePublishJob(jobId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (courseId: string) =>
      invoke<Publication>(`jobs/${jobId}/publish`, 'POST', { courseId }),
    // Publishing may have sent a lesson.published delivery.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...adaptKeys.all, 'deliveries'] }),
  });
}

export function useDeliverJob(jobId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => invoke<{ id: string }>(`jobs/${jobId}/deliver`, 'POST', {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...adaptKeys.all, 'deliveries'] }),
  });
}

export function useWebhookEndpoint(organizationId: string) {
  return useQuery({
    queryKey: outputKeys.endpoint(organizationId),
    queryFn: async (): Promise<WebhookEndpoint | null> => {
      const client = await getSupabase();
      const { data, error } = await client
        .from('adapt_webhook_endpoints')
        .select('organization_id, url, active, events, updated_at')
        .eq('organization_id', organizationId)
        .maybeSingle();
      if (error) throw new Error(error.message);
      return data as WebhookEndpoint | null;
    },
  });
}

export interface EndpointInput {
  url: string;
  active: boolean;
  events: WebhookEvent[];
  rotateSecret: boolean;
}

export function useSaveEndpoint(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: EndpointInput) =>
      invoke<WebhookEndpoint & { secret: string | null }>(
        `webhooks/${organizationId}`,
        'PUT',
        input,
      ),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: outputKeys.endpoint(organizationId) }),
  });
}

export function useDeleteEndpoint(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => invoke<{ deleted: true }>(`webhooks/${organizationId}`, 'DELETE'),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: outputKeys.endpoint(organizationId) }),
  });
}

export function useSendTest(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => invoke<{ id: string }>(`webhooks/${organizationId}/test`, 'POST', {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...adaptKeys.all, 'deliveries'] }),
  });
}

export function useRedeliver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      invoke<{ id: string }>(`deliveries/${deliveryId}/redeliver`, 'POST', {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...adaptKeys.all, 'deliveries'] }),
  });
}

const DELIVERY_PAGE = 50;

/** The delivery log of an organization or of one job, newest first; polled while one is open. */
export function useDeliveries(scope: { organizationId?: string; jobId?: string }) {
  return useQuery({
    queryKey: outputKeys.deliveries(scope),
    queryFn: async (): Promise<WebhookDelivery[]> => {
      const client = await getSupabase();
      let query = client
        .from('adapt_webhook_deliveries')
        .select(
          'id, job_id, event, url, status, attempts, response_code, error, created_at, next_attempt_at, delivered_at, adapt_jobs(title), adapt_webhook_attempts(attempt, attempted_at, response_code, error, duration_ms)',
        )
        .order('created_at', { ascending: false })
        .limit(DELIVERY_PAGE);
      if (scope.organizationId) query = query.eq('organization_id', scope.organizationId);
      if (scope.jobId) query = query.eq('job_id', scope.jobId);
      const { data, error } = await query;
      if (error) throw new Error(error.message);
      const rows = data as unknown as WebhookDelivery[];
      for (const row of rows) row.adapt_webhook_attempts.sort((a, b) => a.attempt - b.attempt);
      return rows;
    },
    refetchInterval: (query) =>
      query.state.data?.some((d) => d.status === 'pending' || d.status === 'retrying')
        ? 2000
        : false,
  });
}
