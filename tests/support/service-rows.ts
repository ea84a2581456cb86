/**
 * Rows the tests and benches write with the service role. Free of vitest, so a bench can run
 * a test world outside the test runner.
 */
import type { SupabaseClient } from '@supabase/supabase-js';

let counter = 0;

/** A name no other test or run uses. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
}

/** Inserts with the service role and returns the row; any error fails the fixture. */
export async function insertRow<T extends Record<string, unknown>>(
  service: SupabaseClient,
  table: string,
  row: Record<string, unknown>,
): Promise<T> {
  const { data, error } = await service.from(table).insert(row).select().single();
  if (error) throw new Error(`fixture insert into ${table}: ${error.message}`);
  return data as T;
}
