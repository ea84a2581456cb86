/**
 * Highlights through supabase-js (decisions 0150 and 0167): a learner keeps ePub highlights
 * with the selection's range CFI, its chapter and the chapter's title; a locator that is not
 * one (no CFI or page, a title that is not text or is too long, an unknown kind) is refused
 * by the table — a missing key used to pass, as a CHECK passes on NULL; nobody else reads or
 * deletes them.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { buildLearningFixture, type LearningFixture } from './learning-fixture';

const cfi = 'epubcfi(/6/4!/4/2,/1:0,/1:30)';

describe.each(databaseKinds)('highlights on %s', (kind) => {
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

  function highlight(locator: unknown) {
    return learner
      .from('highlights')
      .insert({ course_id: f.course, lesson_id: f.lesson, locator, text: 'Origins paragraph 1.' })
      .select('id, locator')
      .single();
  }

  it('keeps an ePub highlight with its range CFI, chapter and chapter title', async () => {
    const locator = { kind: 'epub', cfi, chapter: 2, label: '1. Origins' };
    const { data, error } = await highlight(locator);
    expect(error).toBeNull();
    expect(data?.locator).toEqual(locator);
    const untitled = await highlight({ kind: 'epub', cfi, chapter: 3 });
    expect(untitled.error).toBeNull();

    const { data: own } = await learner
      .from('highlights')
      .select('id')
      .eq('lesson_id', f.lesson)
      .in('id', [data!.id, untitled.data!.id]);
    expect(own).toHaveLength(2);
    for (const actor of ['other_learner', 'instructor', 'org_admin'] as const) {
      const client = f.client(actor);
      expect((await client.from('highlights').select('id').eq('id', data!.id)).data).toEqual([]);
      await client.from('highlights').delete().eq('id', data!.id);
    }
    const kept = await f.service.from('highlights').select('id').eq('id', data!.id);
    expect(kept.data).toHaveLength(1);
  });

  it('refuses a locator that does not say where the highlight is', async () => {
    for (const locator of [
      { kind: 'epub', chapter: 2 },
      { kind: 'epub', cfi: '/6/4!/4/2', chapter: 2 },
      { kind: 'epub', cfi, chapter: 0 },
      { kind: 'epub', cfi, chapter: 2, label: 42 },
      { kind: 'epub', cfi, chapter: 2, label: 'x'.repeat(201) },
      { kind: 'mobi', cfi, chapter: 2 },
      { kind: 'pdf', start: 0, end: 5 },
      'epubcfi(/6/4!/4/2)',
    ]) {
      const { error } = await highlight(locator);
      expect(error?.code, JSON.stringify(locator)).toBe('23514');
    }
  });
});
