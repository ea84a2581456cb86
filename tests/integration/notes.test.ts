/**
 * Notes through supabase-js (decision 0161): a learner's notes are theirs alone (a second
 * learner and the course's instructor see and change none), linked to a course the author
 * may read and a highlight of their own, found by full-text search, refused at 1 MB; a card
 * made from a note keeps the link, and only from one's own note.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { buildLearningFixture, type LearningFixture } from './learning-fixture';

describe.each(databaseKinds)('notes on %s', (kind) => {
  let server: TestServer;
  let f: LearningFixture;
  let learner: SupabaseClient;

  beforeAll(async () => {
    server = await startTestServer(kind, { AUTH_RATE_LIMIT_SIGN_IN: '1000' });
    f = await buildLearningFixture(server);
    learner = f.client('learner');
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function write(row: Record<string, unknown>) {
    return learner.from('notes').insert(row).select('id').single();
  }

  it('keeps a note from a second learner and from the course\u2019s instructor', async () => {
    const { data, error } = await write({
      title: 'Alveoli',
      body: 'Thin walls, large surface.',
      course_id: f.course,
      lesson_id: f.lesson,
      highlight_id: f.highlight,
      tags: ['anatomy', 'exam'],
    });
    expect(error).toBeNull();
    const id = (data as { id: string }).id;
    for (const actor of ['other_learner', 'instructor', 'org_admin', 'owner'] as const) {
      const client = f.client(actor);
      expect((await client.from('notes').select('id').eq('id', id)).data).toEqual([]);
      await client.from('notes').update({ body: 'Overwritten' }).eq('id', id);
      await client.from('notes').delete().eq('id', id);
    }
    const kept = await f.service.from('notes').select('body').eq('id', id).single();
    expect(kept.data).toEqual({ body: 'Thin walls, large surface.' });
  });

  it('links a note only to courses the author may read and their own highlights', async () => {
    const stranger = f.client('other_learner');
    const course = await stranger.from('notes').insert({ title: 'x', course_id: f.course });
    expect(course.error?.code).toBe('42501');
    const highlight = await stranger
      .from('notes')
      .insert({ title: 'x', highlight_id: f.highlight });
    expect(highlight.error?.code).toBe('42501');
    const lessonWithoutCourse = await write({ title: 'x', lesson_id: f.lesson });
    expect(lessonWithoutCourse.error?.code).toBe('23514');
  });

  it('refuses a note of 1 MB or more, and keeps one just below', async () => {
    const limit = 1_048_576;
    // The API's 1 MiB request limit answers first (413); the database's check stands behind it.
    const refused = ['PGRST413', '23514'];
    const tooBig = await write({ title: 'Huge', body: 'a'.repeat(limit) });
    expect(refused).toContain(tooBig.error?.code);
    // Multi-byte characters count as bytes: 349,526 × 3 bytes is over the limit.
    const wide = await write({ title: 'Wide', body: '\u20ac'.repeat(349_526) });
    expect(refused).toContain(wide.error?.code);
    const stored = await f.service.from('notes').select('id').in('title', ['Huge', 'Wide']);
    expect(stored.data).toEqual([]);
    const fits = await write({ title: 'Just fits', body: 'a'.repeat(1_000_000) });
    expect(fits.error).toBeNull();
    const grown = await learner
      .from('notes')
      .update({ body: 'b'.repeat(limit) })
      .eq('id', (fits.data as { id: string }).id);
    expect(refused).toContain(grown.error?.code);
  });

  it('finds notes by words in the title, tags or text', async () => {
    await write({ title: 'Mitochondria', body: 'The powerhouse of the cell.', tags: ['biology'] });
    await write({ title: 'Photosynthesis', body: 'Chloroplasts capture light.', tags: ['plants'] });
    const search = async (words: string) =>
      (
        (
          await learner
            .from('notes')
            .select('title')
            .textSearch('search', words, { type: 'websearch', config: 'english' })
        ).data as { title: string }[]
      ).map((n) => n.title);
    expect(await search('powerhouse')).toEqual(['Mitochondria']);
    expect(await search('plants')).toEqual(['Photosynthesis']);
    expect(await search('chloroplast')).toEqual(['Photosynthesis']);
    const stranger = await f
      .client('other_learner')
      .from('notes')
      .select('title')
      .textSearch('search', 'powerhouse', { type: 'websearch', config: 'english' });
    expect(stranger.data).toEqual([]);
  });

  it('makes a card from one\u2019s own note, and not from another\u2019s', async () => {
    const own = await learner
      .from('flashcards')
      .insert({ note_id: f.note, source: 'note', front: 'Gas exchange?', back: 'Diffusion' })
      .select('note_id, source')
      .single();
    expect(own.data).toEqual({ note_id: f.note, source: 'note' });
    const stolen = await f
      .client('other_learner')
      .from('flashcards')
      .insert({ note_id: f.note, source: 'note', front: 'x', back: 'y' });
    expect(stolen.error?.code).toBe('42501');
  });
});
