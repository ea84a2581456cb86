/**
 * Struggle insights (decision 0222) through supabase-js: those who teach a course read, per
 * bank question and per prerequisite concept, how many learners the study coach saw struggle —
 * by the organization's struggle threshold or an offered refresher — never a group of fewer
 * than five learners and never a name; learners and outsiders are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { buildCoachWorld, chat, type CoachUser, type CoachWorld } from './coach-world';

interface InsightRow {
  kind: 'question' | 'concept';
  question_id: string | null;
  label: string;
  module_title: string | null;
  learners: number;
  struggling: number;
  refresher_offers: number;
  refreshers_taken: number;
  wrong_answers: number;
  threshold: number;
  hidden_groups: number;
}

describe.each(databaseKinds)('struggle insights on %s', (kind) => {
  let server: TestServer;
  let w: CoachWorld;
  let firstQuestion: string;

  /** A learner's study session on the first module: `start`, then the answers given. */
  async function session(who: CoachUser, answers: boolean[], topic?: string) {
    const send = async (body: Record<string, unknown>) => {
      const { status, body: answer } = await chat(server, who, body);
      expect(status, JSON.stringify(answer)).toBe(200);
      return answer;
    };
    const first = await send({
      mode: 'study',
      course_id: w.course,
      topic: topic ?? w.firstModule,
      message: 'start',
    });
    let question = first.question_id!;
    for (const right of answers) {
      const next = await send({
        mode: 'study',
        session_id: first.session_id,
        message: await w.answer(question, right),
      });
      question = next.question_id ?? question;
    }
    return first.question_id!;
  }

  async function insights(who: CoachUser) {
    return who.client.rpc('course_struggle_insights', { course: w.course });
  }

  beforeAll(async () => {
    server = await startTestServer(kind, { AUTH_RATE_LIMIT_SIGN_IN: '1000' });
    w = await buildCoachWorld(server);
    // Five learners miss three times in a row (the refresher is offered); one misses twice and
    // then answers right; one works on another module alone.
    for (let i = 0; i < 5; i += 1) {
      firstQuestion = await session(await w.newLearner(`strug-${i}`), [false, false, false]);
    }
    await session(await w.newLearner('strug-near'), [false, false, true]);
    await session(await w.newLearner('strug-alone'), [false], 'modelling');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('counts learners who struggled per question and per concept, for whoever teaches the course', async () => {
    const { data, error } = await insights(w.teacher);
    expect(error).toBeNull();
    const rows = data as InsightRow[];
    const question = rows.find((r) => r.kind === 'question' && r.question_id === firstQuestion);
    expect(question).toMatchObject({
      learners: 6,
      struggling: 5,
      refresher_offers: 5,
      refreshers_taken: 0,
      wrong_answers: 17,
      threshold: 3,
    });
    expect(question!.label.length).toBeGreaterThan(0);
    const concept = rows.find((r) => r.kind === 'concept');
    expect(concept).toMatchObject({ learners: 6, struggling: 5 });
    // No group below five learners, and the hidden ones are counted, not shown.
    expect(rows.every((r) => r.learners >= 5)).toBe(true);
    expect(rows.filter((r) => r.kind === 'question')).toHaveLength(1);
    expect(rows[0]!.hidden_groups).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(rows)).not.toMatch(/user_id|@example\.com/);
  });

  it("follows the organization's struggle threshold", async () => {
    await server.service().from('organizations').update({ struggle_threshold: 2 }).eq('id', w.org);
    try {
      const { data } = await insights(w.teacher);
      const question = (data as InsightRow[]).find((r) => r.question_id === firstQuestion);
      expect(question).toMatchObject({ learners: 6, struggling: 6, threshold: 2 });
    } finally {
      await server
        .service()
        .from('organizations')
        .update({ struggle_threshold: 3 })
        .eq('id', w.org);
    }
  });

  it('refuses learners and people outside the course', async () => {
    for (const who of [w.learner, w.outsider]) {
      const { data, error } = await insights(who);
      expect(data).toBeNull();
      expect(error?.code).toBe('42501');
      expect(error?.message).toContain('Only those who teach this course');
    }
    const anonymous = await server.anon().rpc('course_struggle_insights', { course: w.course });
    expect(anonymous.error).not.toBeNull();
  });
});
