/**
 * One call to /functions/v1/org-people (decision 0130) through supabase-js. A refusal or a
 * bad request becomes an `OrgPeopleError` carrying the server's message and, for a form, its
 * field errors, so the screens show exactly what was wrong.
 */
import { getSupabase } from '@/lib/supabase';

export class OrgPeopleError extends Error {
  constructor(
    message: string,
    public readonly status: number,
    public readonly fields: Record<string, string> = {},
    /** The whole answer, for calls (the CSV import) whose refusal carries a report. */
    public readonly body: unknown = undefined,
  ) {
    super(message);
    this.name = 'OrgPeopleError';
  }
}

export async function callOrgPeople<T>(
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: Record<string, unknown> | string,
): Promise<T> {
  const client = await getSupabase();
  const { data, error } = await client.functions.invoke(`org-people${path}`, {
    method,
    body,
    headers: typeof body === 'string' ? { 'Content-Type': 'text/csv' } : undefined,
  });
  if (!error) return data as T;
  const response = (error as { context?: unknown }).context;
  if (!(response instanceof Response)) throw new Error(error.message);
  let answer: { message?: string; fields?: Record<string, string> } | undefined;
  try {
    answer = (await response.json()) as typeof answer;
  } catch {
    answer = undefined;
  }
  throw new OrgPeopleError(
    answer?.message ?? `The request failed (HTTP ${response.status}).`,
    response.status,
    answer?.fields ?? {},
    answer,
  );
}

/** An organization's address in the endpoint. */
export const orgPath = (organizationId: string) =>
  `/organizations/${encodeURIComponent(organizationId)}`;
