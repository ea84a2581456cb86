/**
 * Calls to the data-room functions through the app's supabase-js client. Calls that need
 * access send the grant as the bearer token; the server checks it on every request.
 */
import { FunctionsHttpError } from '@supabase/supabase-js';
import { getSupabase } from '@/lib/supabase';
import { readGrant } from '../grant-store';

export class DataRoomRequestError extends Error {
  constructor(
    message: string,
    /** HTTP status, or 0 when the server could not be reached. */
    public readonly status: number,
    public readonly code?: string,
  ) {
    super(message);
    this.name = 'DataRoomRequestError';
  }
}

export class NoGrantError extends DataRoomRequestError {
  constructor() {
    super('Enter the access PIN to open the data room.', 401, 'grant_required');
    this.name = 'NoGrantError';
  }
}

async function toRequestError(error: unknown): Promise<DataRoomRequestError> {
  if (error instanceof FunctionsHttpError) {
    const response = error.context as Response;
    let message = `The server answered with HTTP ${response.status}.`;
    let code: string | undefined;
    try {
      const body = (await response.json()) as { error?: string; message?: string; code?: string };
      message = body.error ?? body.message ?? message;
      code = body.code;
    } catch {
      // Not JSON: keep the generic message.
    }
    return new DataRoomRequestError(message, response.status, code);
  }
  return new DataRoomRequestError(
    'The data room could not be reached. Check your connection and try again.',
    0,
  );
}

export async function invokeDataRoom<T>(
  name: string,
  options: { method?: 'GET' | 'POST'; body?: Record<string, unknown>; withGrant?: boolean } = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  if (options.withGrant ?? true) {
    const grant = readGrant();
    if (!grant) throw new NoGrantError();
    headers.Authorization = `Bearer ${grant.token}`;
  }
  let supabase;
  try {
    supabase = await getSupabase();
  } catch {
    throw new DataRoomRequestError(
      'The data room could not be reached. Check your connection and try again.',
      0,
    );
  }
  const { data, error } = await supabase.functions.invoke<T>(name, {
    method: options.method ?? 'GET',
    headers,
    body: options.body,
  });
  if (error) throw await toRequestError(error);
  return data as T;
}
