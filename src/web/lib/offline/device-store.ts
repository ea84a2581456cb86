/**
 * What a learner keeps on this device for studying offline (decision 0181), in IndexedDB, one
 * database per user (`lyceum-offline:<user id>`), so one account never reads another's copy
 * or queue: the lessons of the courses they made available offline, their due flashcards with
 * the decks' names and retention, and the ratings made offline waiting to be sent. Deleted
 * when the user signs out; kept when the session merely expires, so nothing done offline is
 * lost before they sign in again.
 */
import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { CardSchedule } from '@common/flashcards';
import type { Note, QueuedNoteChange } from './note-queue';
import type { QueuedReview } from './review-queue';

export type SavedLessonKind = 'markdown' | 'pdf' | 'epub' | 'video';

export interface SavedLesson {
  id: string;
  courseId: string;
  moduleTitle: string;
  title: string;
  kind: SavedLessonKind;
  body: string | null;
  filePath: string | null;
  videoUrl: string | null;
  estimatedMinutes: number;
  /** Its order in the course (module, then lesson). */
  position: number;
}

export interface SavedCourse {
  id: string;
  title: string;
  lessons: number;
  savedAt: string;
}

export type SavedCard = CardSchedule & {
  id: string;
  deck_id: string;
  front: string;
  back: string;
  suspended: boolean;
  source: string;
};

export interface SavedDeck {
  id: string;
  name: string;
  desiredRetention: number;
}

interface OfflineSchema extends DBSchema {
  courses: { key: string; value: SavedCourse };
  lessons: { key: string; value: SavedLesson; indexes: { course: string } };
  cards: { key: string; value: SavedCard };
  decks: { key: string; value: SavedDeck };
  queue: { key: string; value: QueuedReview };
  /** The learner's notes as the server last sent them (decision 0182). */
  notes: { key: string; value: Note };
  /** Note changes made here: one waiting per note, then conflicts and refusals to show. */
  noteQueue: { key: string; value: QueuedNoteChange; indexes: { note: string } };
  meta: { key: string; value: { key: string; value: unknown } };
}

export type OfflineDb = IDBPDatabase<OfflineSchema>;

const databaseName = (userId: string) => `lyceum-offline:${userId}`;
const opened = new Map<string, Promise<OfflineDb>>();
/**
 * Accounts signed out in this tab. Work started before the sign-out (a refresh of the kept
 * copies still downloading) must not open the database again and bring it back.
 */
const signedOut = new Set<string>();

export function deviceStoreSupported(): boolean {
  return typeof indexedDB !== 'undefined';
}

/** The user's database on this device, made on first use. */
export function deviceStore(userId: string): Promise<OfflineDb> {
  if (signedOut.has(userId))
    return Promise.reject(new Error('Signed out: this device keeps nothing for the account.'));
  let db = opened.get(userId);
  if (!db) {
    db = openDB<OfflineSchema>(databaseName(userId), 2, {
      upgrade(database, oldVersion) {
        if (oldVersion < 1) {
          database.createObjectStore('courses', { keyPath: 'id' });
          const lessons = database.createObjectStore('lessons', { keyPath: 'id' });
          lessons.createIndex('course', 'courseId');
          database.createObjectStore('cards', { keyPath: 'id' });
          database.createObjectStore('decks', { keyPath: 'id' });
          database.createObjectStore('queue', { keyPath: 'opId' });
          database.createObjectStore('meta', { keyPath: 'key' });
        }
        if (oldVersion < 2) {
          database.createObjectStore('notes', { keyPath: 'id' });
          const notes = database.createObjectStore('noteQueue', { keyPath: 'opId' });
          notes.createIndex('note', 'noteId');
        }
      },
      // Another tab is deleting it (sign-out there): let go so the deletion can finish.
      blocking() {
        void db?.then((open) => open.close());
        opened.delete(userId);
      },
    });
    db.catch(() => opened.delete(userId));
    opened.set(userId, db);
  }
  return db;
}

/** Everything the user kept on this device, queue included: signing out ends it. */
export async function deleteDeviceData(userId: string): Promise<void> {
  signedOut.add(userId);
  const db = opened.get(userId);
  opened.delete(userId);
  if (db) (await db.catch(() => null))?.close();
  forgetDeviceUser(userId);
  if (deviceStoreSupported()) await deleteDB(databaseName(userId));
}

// --- lessons -------------------------------------------------------------------------------

export async function saveCourse(
  userId: string,
  course: SavedCourse,
  lessons: SavedLesson[],
): Promise<void> {
  const db = await deviceStore(userId);
  const tx = db.transaction(['courses', 'lessons'], 'readwrite');
  const old = await tx.objectStore('lessons').index('course').getAllKeys(course.id);
  await Promise.all(old.map((id) => tx.objectStore('lessons').delete(id)));
  await Promise.all(lessons.map((lesson) => tx.objectStore('lessons').put(lesson)));
  await tx.objectStore('courses').put(course);
  await tx.done;
}

export async function removeCourse(userId: string, courseId: string): Promise<void> {
  const db = await deviceStore(userId);
  const tx = db.transaction(['courses', 'lessons'], 'readwrite');
  const ids = await tx.objectStore('lessons').index('course').getAllKeys(courseId);
  await Promise.all(ids.map((id) => tx.objectStore('lessons').delete(id)));
  await tx.objectStore('courses').delete(courseId);
  await tx.done;
}

export async function savedCourses(userId: string): Promise<SavedCourse[]> {
  const courses = await (await deviceStore(userId)).getAll('courses');
  return courses.sort((a, b) => a.title.localeCompare(b.title));
}

export async function savedLesson(userId: string, lessonId: string): Promise<SavedLesson | null> {
  return (await (await deviceStore(userId)).get('lessons', lessonId)) ?? null;
}

export async function savedLessons(userId: string, courseId: string): Promise<SavedLesson[]> {
  const db = await deviceStore(userId);
  const lessons = await db.getAllFromIndex('lessons', 'course', courseId);
  return lessons.sort((a, b) => a.position - b.position);
}

// --- flashcards ----------------------------------------------------------------------------

/** Replaces the kept cards and decks with a fresh copy from the server. */
export async function saveCards(
  userId: string,
  cards: SavedCard[],
  decks: SavedDeck[],
  savedAt: string,
): Promise<void> {
  const db = await deviceStore(userId);
  const tx = db.transaction(['cards', 'decks', 'meta'], 'readwrite');
  await tx.objectStore('cards').clear();
  await tx.objectStore('decks').clear();
  await Promise.all(cards.map((card) => tx.objectStore('cards').put(card)));
  await Promise.all(decks.map((deck) => tx.objectStore('decks').put(deck)));
  await tx.objectStore('meta').put({ key: 'cardsSavedAt', value: savedAt });
  await tx.done;
}

export async function savedCards(userId: string): Promise<SavedCard[]> {
  const cards = await (await deviceStore(userId)).getAll('cards');
  return cards.sort((a, b) => a.due.localeCompare(b.due));
}

export async function savedDecks(userId: string): Promise<SavedDeck[]> {
  return (await deviceStore(userId)).getAll('decks');
}

/** The device's copy of a card after a rating made offline (its schedule computed locally). */
export async function putSavedCard(userId: string, card: SavedCard): Promise<void> {
  await (await deviceStore(userId)).put('cards', card);
}

export async function readMeta<T>(userId: string, key: string): Promise<T | undefined> {
  return (await (await deviceStore(userId)).get('meta', key))?.value as T | undefined;
}

export async function writeMeta(userId: string, key: string, value: unknown): Promise<void> {
  await (await deviceStore(userId)).put('meta', { key, value });
}

// --- the queue -----------------------------------------------------------------------------

export async function queuedReviews(userId: string): Promise<QueuedReview[]> {
  return (await deviceStore(userId)).getAll('queue');
}

export async function putQueuedReview(userId: string, review: QueuedReview): Promise<void> {
  await (await deviceStore(userId)).put('queue', review);
}

export async function deleteQueuedReview(userId: string, opId: string): Promise<void> {
  await (await deviceStore(userId)).delete('queue', opId);
}

// --- who studies offline on this device ----------------------------------------------------

const DEVICE_USER_KEY = 'lyceum-offline-user';

export interface DeviceUser {
  id: string;
  email: string;
}

/**
 * The account last signed in here, so the app opens their offline copy when there is no
 * network to confirm the session. Forgotten at sign-out with their data.
 */
export function rememberDeviceUser(user: DeviceUser): void {
  // Signed in again: the account may keep things on this device again.
  signedOut.delete(user.id);
  try {
    localStorage.setItem(DEVICE_USER_KEY, JSON.stringify(user));
  } catch {
    // Storage blocked: the app then needs the network to open, as before.
  }
}

export function deviceUser(): DeviceUser | null {
  try {
    const value = JSON.parse(localStorage.getItem(DEVICE_USER_KEY) ?? 'null') as unknown;
    if (
      value &&
      typeof (value as DeviceUser).id === 'string' &&
      typeof (value as DeviceUser).email === 'string'
    )
      return value as DeviceUser;
  } catch {
    // Unreadable or blocked: nobody studies offline here.
  }
  return null;
}

function forgetDeviceUser(userId: string): void {
  try {
    if (deviceUser()?.id === userId) localStorage.removeItem(DEVICE_USER_KEY);
  } catch {
    // Storage blocked: nothing was remembered.
  }
}
