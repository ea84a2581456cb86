/**
 * Adds active reading seconds to the learner's progress in a lesson and saves the reader's
 * position (`record_reading`, db/app 0430): the database adds the increment atomically, so two
 * devices both count, and refuses an increment no real reading could produce.
 */
import { getSupabase } from '@/lib/supabase';

export interface ReadingRecord {
  lessonId: string;
  seconds: number;
  position: Record<string, unknown> | null;
}

export async function recordReading(record: ReadingRecord): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.rpc('record_reading', {
    lesson_id: record.lessonId,
    seconds: record.seconds,
    reading_position: record.position,
  });
  if (error) throw new Error(error.message);
}
