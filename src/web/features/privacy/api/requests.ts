/**
 * Data subject requests (decision 0411): the user's own (file one, list them) and the queue
 * of those an admin handles (list by pending, completed or overdue; move one along).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { privacyKeys } from './privacy-keys';

export const requestTypes = [
  'access',
  'rectification',
  'erasure',
  'portability',
  'restriction',
  'objection',
] as const;
export type RequestType = (typeof requestTypes)[number];
export type RequestStatus = 'pending' | 'in_progress' | 'completed' | 'rejected';

export const requestTypeLabels: Record<RequestType, { label: string; hint: string }> = {
  access: { label: 'Access', hint: 'A copy of the data Lyceum holds about you.' },
  rectification: { label: 'Rectification', hint: 'Correct data about you that is wrong.' },
  erasure: { label: 'Erasure', hint: 'Delete your account and the data about you.' },
  portability: { label: 'Portability', hint: 'Your data in a machine-readable file.' },
  restriction: {
    label: 'Restriction',
    hint: 'Limit how your data is used while a question is open.',
  },
  objection: { label: 'Objection', hint: 'Object to a use of your data.' },
};

export interface DataRequest {
  id: string;
  user_id: string;
  request_type: RequestType;
  details: string;
  status: RequestStatus;
  created_at: string;
  due_at: string;
  completed_at: string | null;
  resolution: string | null;
}

const columns =
  'id, user_id, request_type, details, status, created_at, due_at, completed_at, resolution';

export function isOverdue(request: DataRequest, now = Date.now()): boolean {
  return (
    (request.status === 'pending' || request.status === 'in_progress') &&
    Date.parse(request.due_at) < now
  );
}

export async function getMyRequests(userId: string): Promise<DataRequest[]> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('data_subject_requests')
    .select(columns)
    .eq('user_id', userId)
    .order('created_at', { ascending: false });
  if (error) throw new Error(error.message);
  return data as DataRequest[];
}

export function useMyRequests(userId: string) {
  return useQuery({ queryKey: privacyKeys.requests(userId), queryFn: () => getMyRequests(userId) });
}

export function useFileRequest(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ type, details }: { type: RequestType; details: string }) => {
      const client = await getSupabase();
      const { data, error } = await client.rpc('create_data_subject_request', { type, details });
      if (error) throw new Error(error.message);
      return data as DataRequest;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: privacyKeys.requests(userId) }),
  });
}

export type QueueFilter = 'pending' | 'overdue' | 'completed';

export async function getQueue(filter: QueueFilter): Promise<DataRequest[]> {
  const client = await getSupabase();
  let query = client.from('data_subject_requests').select(columns);
  if (filter === 'completed') {
    query = query
      .in('status', ['completed', 'rejected'])
      .order('completed_at', { ascending: false });
  } else {
    query = query.in('status', ['pending', 'in_progress']).order('due_at');
    if (filter === 'overdue') query = query.lt('due_at', new Date().toISOString());
  }
  const { data, error } = await query.limit(200);
  if (error) throw new Error(error.message);
  return data as DataRequest[];
}

export function useQueue(userId: string, filter: QueueFilter) {
  return useQuery({
    queryKey: privacyKeys.queue(userId, 'all', filter),
    queryFn: () => getQueue(filter),
  });
}

export function useUpdateRequest(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: {
      id: string;
      status: 'in_progress' | 'completed' | 'rejected';
      resolution?: string;
    }) => {
      const client = await getSupabase();
      const { data, error } = await client.rpc('update_data_subject_request', {
        request_id: change.id,
        status: change.status,
        resolution: change.resolution ?? null,
      });
      if (error) throw new Error(error.message);
      return data as DataRequest;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: privacyKeys.user(userId) }),
  });
}
