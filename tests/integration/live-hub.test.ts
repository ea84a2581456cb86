/**
 * The live hub's rules (decision 0310) through supabase-js on both databases: the room of a
 * course is its enrolled learners' and its teachers'; a muted learner cannot post; each learner
 * answers a live question once; only those who teach remove, mute, ask and close; only the
 * room's members join its private realtime channel and see who is there; and chat reaches the
 * room by postgres changes, never anyone outside it.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Inbox, joined, realtimeClient, subscribe, withToken } from '../support/realtime';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { buildLearningFixture, type Actor, type LearningFixture } from './learning-fixture';

describe.each(databaseKinds)('the live hub on %s', (kind) => {
  let server: TestServer;
  let f: LearningFixture;
  const realtimeClients: SupabaseClient[] = [];

  beforeAll(async () => {
    server = await startTestServer(kind);
    f = await buildLearningFixture(server);
  });
  afterEach(async () => {
    await Promise.all(realtimeClients.splice(0).map((c) => c.removeAllChannels()));
  });
  afterAll(() => server?.stop());

  const outsiders: Actor[] = [
    'other_learner',
    'other_admin',
    'board_admin',
    'compliance',
    'deactivated',
    'personal',
    'anon',
  ];

  async function messagesBy(userId: string) {
    const { data } = await f.service
      .from('live_messages')
      .select('body, removed_at')
      .eq('course_id', f.course)
      .eq('user_id', userId);
    return data ?? [];
  }

  it('lets the room read and post, and keeps everyone else out', async () => {
    const posted = await f
      .client('learner')
      .from('live_messages')
      .insert({ course_id: f.course, body: '  Why do the lungs not collapse?  ' })
      .select('body, author_name, from_instructor, user_id')
      .single();
    expect(posted.error).toBeNull();
    expect(posted.data).toMatchObject({
      body: 'Why do the lungs not collapse?',
      from_instructor: false,
      user_id: f.users.learner.id,
    });
    const answer = await f
      .client('instructor')
      .from('live_messages')
      .insert({ course_id: f.course, body: 'The pleural fluid holds them to the chest wall.' })
      .select('from_instructor')
      .single();
    expect(answer.data).toEqual({ from_instructor: true });
    const seen = await f
      .client('learner')
      .from('live_messages')
      .select('body')
      .eq('course_id', f.course);
    expect(seen.data!.map((m) => m.body)).toEqual(
      expect.arrayContaining([
        'Why do the lungs not collapse?',
        'The pleural fluid holds them to the chest wall.',
      ]),
    );

    for (const actor of outsiders) {
      const client = f.client(actor);
      const read = await client.from('live_messages').select('id').eq('course_id', f.course);
      expect(read.data ?? [], actor).toEqual([]);
      const questions = await client.from('live_questions').select('id').eq('course_id', f.course);
      expect(questions.data ?? [], actor).toEqual([]);
      const hands = await client.from('live_hands').select('user_id').eq('course_id', f.course);
      expect(hands.data ?? [], actor).toEqual([]);
      const post = await client
        .from('live_messages')
        .insert({ course_id: f.course, body: `from ${actor}` });
      expect(post.error, actor).not.toBeNull();
      const hand = await client.from('live_hands').insert({ course_id: f.course });
      expect(hand.error, actor).not.toBeNull();
    }
    const { data: strays } = await f.service
      .from('live_messages')
      .select('body')
      .like('body', 'from %');
    expect(strays).toEqual([]);
  });

  it('refuses empty and oversized messages, and posting as someone else', async () => {
    const learner = f.client('learner');
    for (const body of ['', '   ', 'x'.repeat(2001)]) {
      const { error } = await learner.from('live_messages').insert({ course_id: f.course, body });
      expect(error?.code, JSON.stringify(body.slice(0, 5))).toBe('23514');
    }
    const forged = await learner
      .from('live_messages')
      .insert({ course_id: f.course, body: 'I am the instructor', user_id: f.users.instructor.id })
      .select('user_id')
      .single();
    // The database writes the message as its real author, whatever the client claims.
    expect(forged.data).toEqual({ user_id: f.users.learner.id });
  });

  it('lets those who teach remove a message and mute a learner, who then cannot post', async () => {
    const learner = f.client('learner');
    const instructor = f.client('instructor');
    const { data: message } = await learner
      .from('live_messages')
      .insert({ course_id: f.course, body: 'Something off topic' })
      .select('id')
      .single();

    // A learner removes nothing, not even their own message; the instructor does.
    const byLearner = await learner
      .from('live_messages')
      .update({ body: '' })
      .eq('id', message!.id)
      .select('id');
    expect(byLearner.data).toEqual([]);
    const removed = await instructor
      .from('live_messages')
      .update({ body: '' })
      .eq('id', message!.id)
      .select('body, removed_at, removed_by')
      .single();
    expect(removed.data).toMatchObject({ body: '', removed_by: f.users.instructor.id });
    expect(removed.data!.removed_at).not.toBeNull();

    // Muting: learners may not; the instructor may; then the learner's posts are refused.
    const selfHelp = await learner
      .from('live_mutes')
      .insert({ course_id: f.course, user_id: f.users.learner.id });
    expect(selfHelp.error?.code).toBe('42501');
    const mute = await instructor
      .from('live_mutes')
      .insert({ course_id: f.course, user_id: f.users.learner.id })
      .select('user_name')
      .single();
    expect(mute.error).toBeNull();
    const mutedPost = await learner
      .from('live_messages')
      .insert({ course_id: f.course, body: 'Still here?' });
    expect(mutedPost.error?.code).toBe('42501');
    expect((await messagesBy(f.users.learner.id)).map((m) => m.body)).not.toContain('Still here?');
    // The learner learns they are muted; they still raise their hand and read the room.
    const own = await learner.from('live_mutes').select('user_id').eq('course_id', f.course);
    expect(own.data).toEqual([{ user_id: f.users.learner.id }]);
    // An instructor cannot be muted.
    const muteTeacher = await f
      .client('owner')
      .from('live_mutes')
      .insert({ course_id: f.course, user_id: f.users.instructor.id });
    expect(muteTeacher.error?.code).toBe('42501');

    const unmute = await instructor
      .from('live_mutes')
      .delete()
      .eq('course_id', f.course)
      .eq('user_id', f.users.learner.id)
      .select('user_id');
    expect(unmute.data).toHaveLength(1);
    const again = await learner
      .from('live_messages')
      .insert({ course_id: f.course, body: 'Back again' });
    expect(again.error).toBeNull();
  });

  it('takes one answer per learner to an open question, counts it, and refuses answers after closing', async () => {
    const instructor = f.client('instructor');
    const learner = f.client('learner');
    // The fixture's poll is open: a second one is refused until it closes.
    const second = await instructor.from('live_questions').insert({
      course_id: f.course,
      kind: 'short',
      prompt: 'One more?',
    });
    expect(second.error?.code).toBe('23505');
    const closed = await instructor
      .from('live_questions')
      .update({ status: 'closed' })
      .eq('id', f.liveQuestion)
      .select('status, closed_at')
      .single();
    expect(closed.data!.status).toBe('closed');

    const bad = [
      { kind: 'poll', prompt: 'Too few', choices: ['Only one'] },
      { kind: 'poll', prompt: 'Empty choice', choices: ['Yes', '  '] },
      { kind: 'short', prompt: 'With choices', choices: ['A', 'B'] },
      { kind: 'poll', prompt: '', choices: ['A', 'B'] },
    ];
    for (const row of bad) {
      const { error } = await instructor
        .from('live_questions')
        .insert({ course_id: f.course, ...row });
      expect(error, row.prompt).not.toBeNull();
    }
    const byLearner = await learner
      .from('live_questions')
      .insert({ course_id: f.course, kind: 'short', prompt: 'Can I ask?' });
    expect(byLearner.error?.code).toBe('42501');

    const { data: poll } = await instructor
      .from('live_questions')
      .insert({
        course_id: f.course,
        kind: 'poll',
        prompt: 'Where does gas exchange happen?',
        choices: ['Bronchi', 'Alveoli', 'Trachea'],
        tally: [99, 99, 99],
        answers: 99,
      })
      .select('id, tally, answers, status')
      .single();
    // What the room counts starts at zero, whatever the client sent.
    expect(poll).toMatchObject({ tally: [0, 0, 0], answers: 0, status: 'open' });

    const out = await learner.from('live_answers').insert({ question_id: poll!.id, choice: 3 });
    expect(out.error?.code).toBe('22023');
    const words = await learner
      .from('live_answers')
      .insert({ question_id: poll!.id, text: 'Alveoli' });
    expect(words.error?.code).toBe('22023');
    const first = await learner.from('live_answers').insert({ question_id: poll!.id, choice: 1 });
    expect(first.error).toBeNull();
    const twice = await learner.from('live_answers').insert({ question_id: poll!.id, choice: 0 });
    expect(twice.error?.code).toBe('23505');
    const instructorAnswer = await instructor
      .from('live_answers')
      .insert({ question_id: poll!.id, choice: 0 });
    expect(instructorAnswer.error?.code).toBe('42501');
    for (const actor of outsiders) {
      const { error } = await f
        .client(actor)
        .from('live_answers')
        .insert({ question_id: poll!.id, choice: 0 });
      expect(error, actor).not.toBeNull();
    }

    const tallied = await learner
      .from('live_questions')
      .select('tally, answers')
      .eq('id', poll!.id)
      .single();
    expect(tallied.data).toEqual({ tally: [0, 1, 0], answers: 1 });
    // The learner reads their own answer; those who teach read every answer.
    const mine = await learner.from('live_answers').select('choice').eq('question_id', poll!.id);
    expect(mine.data).toEqual([{ choice: 1 }]);
    const all = await instructor.from('live_answers').select('user_id').eq('question_id', poll!.id);
    expect(all.data).toEqual([{ user_id: f.users.learner.id }]);

    // Closed on the instructor's word: no more answers, and it stays closed.
    await instructor.from('live_questions').update({ status: 'closed' }).eq('id', poll!.id);
    await f.service.from('live_answers').delete().eq('question_id', poll!.id);
    const late = await learner.from('live_answers').insert({ question_id: poll!.id, choice: 2 });
    expect(late.error?.code).toBe('22023');
    const reopen = await instructor
      .from('live_questions')
      .update({ status: 'open' })
      .eq('id', poll!.id);
    expect(reopen.error?.code).toBe('22023');
    const forged = await instructor
      .from('live_questions')
      .update({ status: 'closed', prompt: 'Rewritten' })
      .eq('id', poll!.id);
    expect(forged.error?.code).toBe('42501');
  });

  it('keeps a raise-hand queue: learners raise and lower their own, those who teach lower any', async () => {
    const learner = f.client('learner');
    const instructor = f.client('instructor');
    await f.service.from('live_hands').delete().eq('course_id', f.course);
    const up = await learner
      .from('live_hands')
      .insert({ course_id: f.course })
      .select('user_name')
      .single();
    expect(up.error).toBeNull();
    const again = await learner.from('live_hands').insert({ course_id: f.course });
    expect(again.error?.code).toBe('23505');
    const instructorHand = await instructor.from('live_hands').insert({ course_id: f.course });
    expect(instructorHand.error?.code).toBe('42501');
    const queue = await instructor.from('live_hands').select('user_id').eq('course_id', f.course);
    expect(queue.data).toEqual([{ user_id: f.users.learner.id }]);
    const taken = await instructor
      .from('live_hands')
      .delete()
      .eq('course_id', f.course)
      .eq('user_id', f.users.learner.id)
      .select('user_id');
    expect(taken.data).toHaveLength(1);
  });

  it('lets only the room join its private channel, where each sees who is here', async () => {
    const topic = `live:${f.course}`;
    async function member(actor: Exclude<Actor, 'anon'>) {
      const client = realtimeClient(server, { token: () => f.users[actor].token });
      realtimeClients.push(client);
      return withToken(client);
    }
    const learnerClient = await member('learner');
    const instructorClient = await member('instructor');
    const learnerChannel = learnerClient.channel(topic, {
      config: { private: true, presence: { key: f.users.learner.id } },
    });
    const syncs = new Inbox<string[]>();
    learnerChannel.on('presence', { event: 'sync' }, () =>
      syncs.push(Object.keys(learnerChannel.presenceState())),
    );
    await joined(learnerChannel);
    await learnerChannel.track({ name: 'Learner', role: 'learner', status: 'here' });
    const instructorChannel = instructorClient.channel(topic, {
      config: { private: true, presence: { key: f.users.instructor.id } },
    });
    instructorChannel.on('presence', { event: 'sync' }, () => undefined);
    await joined(instructorChannel);
    await instructorChannel.track({ name: 'Instructor', role: 'instructor', status: 'here' });
    const both = await syncs.until((keys) => keys.length === 2);
    expect(both.sort()).toEqual([f.users.instructor.id, f.users.learner.id].sort());

    for (const actor of ['other_learner', 'board_admin', 'compliance', 'personal'] as const) {
      const outsider = await member(actor);
      const result = await subscribe(outsider.channel(topic, { config: { private: true } }));
      expect(result.status, actor).toBe('CHANNEL_ERROR');
      expect(result.error?.message, actor).toMatch(/^Unauthorized/);
    }
    const garbage = await member('learner');
    const wrong = await subscribe(
      garbage.channel('live:not-a-course', { config: { private: true } }),
    );
    expect(wrong.status).toBe('CHANNEL_ERROR');
  });

  it('delivers chat and its removal by postgres changes to the room only', async () => {
    // A table anyone may read: its change, committed last, shows that nothing came before it.
    await server.deps.db.exec(`
      create table if not exists public.live_probe (id int primary key);
      grant select on public.live_probe to authenticated;
      select realtime.enable_changes('public.live_probe');
    `);
    type Change = { eventType: string; table: string; new: Record<string, unknown>; old: object };
    async function watch(actor: 'learner' | 'other_learner') {
      const client = realtimeClient(server, { token: () => f.users[actor].token });
      realtimeClients.push(client);
      await withToken(client);
      const inbox = new Inbox<Change>();
      await joined(
        client
          .channel(`chat-${actor}-${f.course}`)
          .on(
            'postgres_changes',
            {
              event: '*',
              schema: 'public',
              table: 'live_messages',
              filter: `course_id=eq.${f.course}`,
            },
            inbox.push,
          )
          .on(
            'postgres_changes',
            { event: 'INSERT', schema: 'public', table: 'live_probe' },
            inbox.push,
          ),
      );
      return inbox;
    }
    const room = await watch('learner');
    const outside = await watch('other_learner');

    const posted = await f
      .client('instructor')
      .from('live_messages')
      .insert({ course_id: f.course, body: 'Bring your stethoscope on Friday.' })
      .select('id')
      .single();
    expect(await room.next()).toMatchObject({
      eventType: 'INSERT',
      new: {
        id: posted.data!.id,
        body: 'Bring your stethoscope on Friday.',
        from_instructor: true,
      },
    });
    const removed = await f
      .client('instructor')
      .from('live_messages')
      .update({ body: '' })
      .eq('id', posted.data!.id);
    expect(removed.error).toBeNull();
    const removal = await room.next();
    expect(removal).toMatchObject({ eventType: 'UPDATE', new: { id: posted.data!.id, body: '' } });
    expect(removal.new.removed_at).toEqual(expect.any(String));
    // The old record is the key: the removed text never travels.
    expect(removal.old).toEqual({ id: posted.data!.id });

    await server.deps.db.query('insert into public.live_probe (id) values (1)');
    expect(await outside.next()).toMatchObject({ eventType: 'INSERT', table: 'live_probe' });
  });
});
