/**
 * Making study material available offline (decision 0181): a course's lessons (their text and
 * details; PDF and ePub files and videos still need the network) and the learner's flashcards
 * due within a week with their decks. Each copy is read through row-level security like any
 * screen's, into the user's own device store, and refreshed whenever the app opens online.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { getSupabase } from '@/lib/supabase';
import { keepNotesOffline, keepsNotes } from './offline-notes';
import {
  queuedReviews,
  readMeta,
  removeCourse,
  saveCards,
  saveCourse,
  savedCourses,
  writeMeta,
  type SavedCard,
  type SavedDeck,
  type SavedLesson,
  type SavedLessonKind,
} from './device-store';

/** Cards due within this many days are kept, so a few days away from a network still work. */
export const KEEP_CARDS_DUE_WITHIN_DAYS = 7;
const MAX_KEPT_CARDS = 1000;
const KEEP_CARDS = 'keepCards';

interface LessonRow {
  id: string;
  module_id: string;
  title: string;
  kind: SavedLessonKind;
  body: string | null;
  file_path: string | null;
  video_url: string | null;
  estimated_minutes: number;
}

/** The course can no longer be read by this learner. */
class CourseGone extends Error {}

function fail(what: string, error: { message: string }): never {
  throw new Error(`Could not keep ${what} offline: ${error.message}`);
}

async function readCourse(client: SupabaseClient, courseId: string) {
  const [course, modules, lessons] = await Promise.all([
    client.from('courses').select('id, title').eq('id', courseId).maybeSingle(),
    client.from('modules').select('id, title').eq('course_id', courseId).order('position'),
    client
      .from('lessons')
      .select('id, module_id, title, kind, body, file_path, video_url, estimated_minutes')
      .eq('course_id', courseId)
      .order('position'),
  ]);
  if (course.error) fail('the course', course.error);
  if (modules.error) fail('the course', modules.error);
  if (lessons.error) fail('the course', lessons.error);
  if (!course.data) throw new CourseGone('This course does not exist, or is not yours to read.');
  const moduleOrder = (modules.data as { id: string; title: string }[]).map((m) => m);
  const rows = lessons.data as LessonRow[];
  if (rows.length === 0)
    throw new CourseGone('This course has no lessons you can read yet. Enrol in it first.');
  const ordered = moduleOrder.flatMap((m) =>
    rows.filter((lesson) => lesson.module_id === m.id).map((lesson) => ({ lesson, module: m })),
  );
  return {
    course: course.data as { id: string; title: string },
    lessons: ordered.map(({ lesson, module }, position): SavedLesson => ({
      id: lesson.id,
      courseId,
      moduleTitle: module.title,
      title: lesson.title,
      kind: lesson.kind,
      body: lesson.body,
      filePath: lesson.file_path,
      videoUrl: lesson.video_url,
      estimatedMinutes: lesson.estimated_minutes,
      position,
    })),
  };
}

/** Copies a course's lessons to this device (again, if kept already). */
export async function keepCourseOffline(userId: string, courseId: string): Promise<number> {
  const client = await getSupabase();
  const { course, lessons } = await readCourse(client, courseId);
  await saveCourse(
    userId,
    {
      id: course.id,
      title: course.title,
      lessons: lessons.length,
      savedAt: new Date().toISOString(),
    },
    lessons,
  );
  return lessons.length;
}

/** Copies the learner's cards due within a week, and their decks, to this device. */
export async function keepDueCardsOffline(userId: string): Promise<number> {
  const client = await getSupabase();
  const until = new Date(Date.now() + KEEP_CARDS_DUE_WITHIN_DAYS * 86_400_000).toISOString();
  const [cards, decks] = await Promise.all([
    client
      .from('flashcards')
      .select(
        'id, deck_id, front, back, suspended, source, state, due, stability, difficulty, ' +
          'scheduled_days, learning_steps, reps, lapses, last_review',
      )
      .eq('suspended', false)
      .lte('due', until)
      .order('due')
      .limit(MAX_KEPT_CARDS),
    client.from('flashcard_decks').select('id, name, desired_retention'),
  ]);
  if (cards.error) fail('your flashcards', cards.error);
  if (decks.error) fail('your flashcards', decks.error);
  const kept = cards.data as unknown as SavedCard[];
  await saveCards(
    userId,
    kept,
    (decks.data as { id: string; name: string; desired_retention: number | string }[]).map(
      (deck): SavedDeck => ({
        id: deck.id,
        name: deck.name,
        desiredRetention: Number(deck.desired_retention),
      }),
    ),
    new Date().toISOString(),
  );
  await writeMeta(userId, KEEP_CARDS, true);
  return kept.length;
}

export async function keepsDueCards(userId: string): Promise<boolean> {
  return (await readMeta<boolean>(userId, KEEP_CARDS)) === true;
}

/** Stops keeping cards: the copies go, ratings still waiting to be sent stay. */
export async function stopKeepingDueCards(userId: string): Promise<void> {
  await saveCards(userId, [], [], new Date().toISOString());
  await writeMeta(userId, KEEP_CARDS, false);
}

/**
 * Brings every kept copy up to date (notes too, decision 0182). Cards are refreshed only once no rating waits to be sent:
 * the server's copy would otherwise bring back a card already rated on this device.
 */
export async function refreshKeptCopies(userId: string): Promise<void> {
  for (const course of await savedCourses(userId)) {
    try {
      await keepCourseOffline(userId, course.id);
    } catch (error) {
      // A course the learner may no longer read (unenrolled, removed) leaves the device.
      if (error instanceof CourseGone) await removeCourse(userId, course.id);
      else throw error;
    }
  }
  const waiting = (await queuedReviews(userId)).some((review) => review.status === 'waiting');
  if (!waiting && (await keepsDueCards(userId))) await keepDueCardsOffline(userId);
  // Note changes still waiting are laid over the copy when read, so it may be refreshed now.
  if (await keepsNotes(userId)) await keepNotesOffline(userId);
}
