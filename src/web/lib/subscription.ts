/**
 * The signed-in person's tier in force, from check-subscription (decision 0602): read by the
 * subscription card on Settings and by the Plans page, so both show the same answer.
 */
import { useQuery } from '@tanstack/react-query';
import type { SubscriptionStatusResponse } from '@common/billing';
import { getSupabase } from './supabase';

export const subscriptionKeys = {
  all: ['subscription'] as const,
  mine: (userId: string) => [...subscriptionKeys.all, userId] as const,
};

/** The function's own sentence when it refuses; otherwise supabase-js's message. */
export async function functionError(error: unknown): Promise<Error> {
  const context = (error as { context?: unknown }).context;
  if (context instanceof Response) {
    const body = (await context.json().catch(() => ({}))) as { error?: string };
    return new Error(body.error ?? `the server answered HTTP ${context.status}`);
  }
  return error instanceof Error ? error : new Error(String(error));
}

export async function getSubscription(): Promise<SubscriptionStatusResponse> {
  const client = await getSupabase();
  const { data, error } = await client.functions.invoke<SubscriptionStatusResponse>(
    'check-subscription',
    { method: 'GET' },
  );
  if (error) throw await functionError(error);
  if (!data) throw new Error('check-subscription answered nothing');
  return data;
}

export function useSubscription(userId: string) {
  return useQuery({ queryKey: subscriptionKeys.mine(userId), queryFn: getSubscription });
}
