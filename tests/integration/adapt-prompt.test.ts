/**
 * LE Adapt from a typed course prompt (issue 14) through the server on PGlite and PostgreSQL.
 * With no model configured the lesson is assembled from the course library the prompt's owner
 * may read, and the insights say so and name the course; with nothing matching, the job fails
 * on its first stage with a message that says what to do. With a model (the loopback fake
 * OpenAI server) the model writes the course text and improves stage 2, and the insights name
 * it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { buildLearningFixture, insertRow, type LearningFixture } from './learning-fixture';

type Stage = {
  stage: number;
  name: string;
  status: string;
  error: string | null;
  output: unknown;
  report: { changes: string[]; engine: { label: string } } | null;
};

const OSMOSIS =
  'Osmosis is the movement of water across a semipermeable membrane from a dilute solution to a concentrated one.\n\n' +
  'Jean-Antoine Nollet first described osmosis in 1748. A red blood cell placed in pure water swells and may burst, because water moves into the cell.';

async function createPromptJob(
  server: TestServer,
  token: string,
  organizationId: string,
  prompt: string,
) {
  const response = await fetch(`${server.url}/functions/v1/adapt/jobs`, {
    method: 'POST',
    headers: {
      apikey: server.anonKey,
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({
      organizationId,
      prompt,
      title: 'From a prompt',
      readingLevel: 8,
      learnerProfile: 'none',
      language: 'en',
    }),
  });
  const body = (await response.json()) as { id: string; error?: string };
  expect(response.status, body.error).toBe(201);
  return body.id;
}

async function settledStages(
  server: TestServer,
  id: string,
): Promise<{ status: string; stages: Stage[] }> {
  const read = async () => {
    const { rows } = await server.deps.db.query<{ status: string }>(
      'select status from public.adapt_jobs where id = $1',
      [id],
    );
    return rows[0]!.status;
  };
  await expect.poll(read, { timeout: 90_000, interval: 250 }).toMatch(/^(done|failed)$/);
  const { rows } = await server.deps.db.query<Stage>(
    'select stage, name, status, error, output, report from public.adapt_job_stages where job_id = $1 order by stage',
    [id],
  );
  return { status: await read(), stages: rows };
}

describe.each(databaseKinds)('LE Adapt from a prompt on %s', (kind) => {
  describe('with no model configured', () => {
    let server: TestServer;
    let fx: LearningFixture;

    beforeAll(async () => {
      server = await startTestServer(kind);
      fx = await buildLearningFixture(server);
      await insertRow(fx.service, 'lessons', {
        module_id: fx.module,
        course_id: fx.course,
        position: 90,
        title: 'Osmosis',
        kind: 'markdown',
        body: OSMOSIS,
      });
    }, 120_000);
    afterAll(() => server?.stop());

    it('assembles the lesson from matching course material and says so', async () => {
      const id = await createPromptJob(
        server,
        fx.users.instructor.token,
        fx.orgA,
        'Osmosis across semipermeable membranes',
      );
      const { status, stages } = await settledStages(server, id);
      expect(status).toBe('done');
      const [extract, structure] = stages;
      expect(extract!.report!.engine.label).toBe('Built-in offline engine · course library search');
      const { rows: course } = await server.deps.db.query<{ title: string }>(
        'select title from public.courses where id = $1',
        [fx.course],
      );
      expect(extract!.report!.changes.join(' ')).toMatch(
        new RegExp(
          `No model is configured, so the lesson was assembled from \\d+ passages? of the course library that match the prompt \\([^)]*${course[0]!.title}[^)]*\\)`,
        ),
      );
      expect(structure!.report!.engine.label).toBe('Built-in offline engine');
      const lesson = structure!.output as {
        sections: Array<{ body: string }>;
        glossary: Array<{ term: string }>;
      };
      expect(lesson.sections.map((s) => s.body).join('\n')).toContain(
        'Jean-Antoine Nollet first described osmosis in 1748',
      );
      expect(lesson.glossary.map((g) => g.term.toLowerCase())).toContain('osmosis');
    }, 120_000);

    it('fails on its first stage with what to do when nothing in the library matches', async () => {
      const id = await createPromptJob(
        server,
        fx.users.instructor.token,
        fx.orgA,
        'Quantum chromodynamics of gluons',
      );
      const { status, stages } = await settledStages(server, id);
      expect(status).toBe('failed');
      expect(stages[0]).toMatchObject({
        name: 'extract',
        status: 'failed',
        error:
          'No model is configured to write from a prompt, and no lesson or file in the course library you can read matches it. Upload the material instead, or configure a model (AI_* settings).',
      });
    }, 120_000);

    it("does not use material the prompt's owner may not read", async () => {
      // The other organization's admin reads none of organization A's courses.
      const id = await createPromptJob(
        server,
        fx.users.other_admin.token,
        fx.orgB,
        'Osmosis across semipermeable membranes',
      );
      const { status, stages } = await settledStages(server, id);
      expect(status).toBe('failed');
      expect(stages[0]!.error).toContain(
        'no lesson or file in the course library you can read matches it',
      );
    }, 120_000);
  });

  describe('with a model configured', () => {
    let server: TestServer;
    let fx: LearningFixture;
    let fake: FakeOpenAI;

    beforeAll(async () => {
      fake = await startFakeOpenAI();
      server = await startTestServer(kind, {
        AI_B_BASE_URL: fake.url,
        AI_B_API_KEY: 'test-key',
        AI_B_MODEL: 'small-b',
      });
      fx = await buildLearningFixture(server);
      fake.reply = (request) => {
        const system = request.body.messages.find((m) => m.role === 'system')?.content ?? '';
        if (String(system).startsWith('You write university course material')) {
          return `# Osmosis\n\n## What osmosis is\n\n${OSMOSIS}\n\n## Cells in water\n\nA cell membrane is a semipermeable membrane. Water moves into a cell placed in pure water.`;
        }
        if (String(system).startsWith('You improve a structured lesson')) {
          return JSON.stringify({
            objectives: [
              { verb: 'explain', text: 'Explain why water moves across a semipermeable membrane.' },
              { verb: 'predict', text: 'Predict what happens to a red blood cell in pure water.' },
            ],
            quiz: [
              {
                kind: 'multiple_choice',
                prompt: 'Who first described osmosis?',
                choices: ['Jean-Antoine Nollet', 'Robert Hooke', 'Louis Pasteur'],
                answerIndex: 0,
              },
              { kind: 'cloze', text: 'Osmosis was first described in ____.', answer: '1748' },
              {
                kind: 'short_answer',
                prompt: 'Why does a red blood cell swell in pure water?',
                referenceAnswer: 'Water moves into the cell by osmosis.',
                keyPoints: ['water moves into the cell', 'osmosis'],
              },
            ],
          });
        }
        return 'OK';
      };
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
      await fake?.close();
    });

    it('lets the model write the course text and improve the structure, and names it', async () => {
      const id = await createPromptJob(
        server,
        fx.users.instructor.token,
        fx.orgA,
        'An introduction to osmosis',
      );
      const { status, stages } = await settledStages(server, id);
      expect(status).toBe('done');
      expect(stages[0]!.report!.engine.label).toBe('Provider B · small-b');
      expect(stages[0]!.report!.changes.join(' ')).toContain(
        'Provider B · small-b wrote the course text from the prompt.',
      );
      expect(stages[1]!.report!.engine.label).toBe('Provider B · small-b');
      expect(stages[1]!.report!.changes.at(-1)).toMatch(
        /^Provider B · small-b rewrote the objectives, quiz: /,
      );
      const lesson = stages[1]!.output as {
        quiz: Array<{ kind: string }>;
        objectives: Array<{ verb: string }>;
      };
      expect(lesson.objectives.map((o) => o.verb)).toEqual(['explain', 'predict']);
      expect(lesson.quiz.map((q) => q.kind)).toEqual(['multiple_choice', 'cloze', 'short_answer']);
    }, 120_000);
  });
});
