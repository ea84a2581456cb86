/**
 * Stage 2 with a model (decision 0502) through the loopback fake OpenAI server: the model's
 * answer is used when it passes the fidelity gate's rules, a part that drops a key term or
 * states a figure the source does not is refused with the reason, and a failing or garbled
 * model leaves the built-in engine's lesson, each said in the stage's report.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../../../tests/support/fake-openai';
import { createAiProvider, type AiProvider } from '../../ai/provider';
import { loadConfig } from '../../config';
import type { ExtractedText, StructuredLesson } from '../lesson';
import { buildOfflineLesson } from './offline-structure';
import { structureLesson } from './structure-lesson';

const source: ExtractedText = {
  format: 'txt',
  title: 'Photosynthesis',
  blocks: [
    '# How plants make food',
    'Photosynthesis is the process by which green plants make glucose from carbon dioxide and water using light. Jan Ingenhousz showed in 1779 that plants need light to make oxygen.',
    'Chlorophyll is the green pigment that absorbs light in the chloroplast. A leaf turns about 3 percent of the light that reaches it into chemical energy.',
    '# Where it happens',
    'The chloroplast is the organelle where photosynthesis takes place. The stroma is the fluid around the thylakoids, where the Calvin cycle fixes carbon dioxide into sugar.',
  ].map((text, i) => ({ text, source: { kind: 'page' as const, page: i < 3 ? 1 : 2 } })),
};
const options = { title: 'Photosynthesis', language: 'en' };
const MODEL = 'Provider B · small-b';

let fake: FakeOpenAI;
let ai: AiProvider;
let draft: StructuredLesson;

/** A well-formed answer, built on the draft so it keeps every key term the source defines. */
function answer(overrides: Record<string, unknown> = {}) {
  return JSON.stringify({
    objectives: [
      {
        verb: 'explain',
        text: 'Explain how a plant makes glucose from light, water and carbon dioxide.',
      },
      { verb: 'identify', text: 'Identify where in the chloroplast the Calvin cycle runs.' },
    ],
    glossary: draft.glossary.map((g) => ({
      term: g.term,
      definition: `In plain words: ${g.definition}`,
    })),
    quiz: [
      {
        kind: 'multiple_choice',
        prompt: 'Which pigment absorbs light in the chloroplast?',
        choices: ['Chlorophyll', 'Stroma', 'Glucose'],
        answerIndex: 0,
      },
      {
        kind: 'cloze',
        text: 'Jan Ingenhousz showed in ____ that plants need light to make oxygen.',
        answer: '1779',
      },
      {
        kind: 'short_answer',
        prompt: 'What does photosynthesis make, and from what?',
        referenceAnswer: 'Glucose, from carbon dioxide and water, using light.',
        keyPoints: ['glucose', 'carbon dioxide and water'],
      },
    ],
    ...overrides,
  });
}

beforeAll(async () => {
  fake = await startFakeOpenAI();
  ai = createAiProvider(
    loadConfig(
      {},
      {
        AI_B_BASE_URL: fake.url,
        AI_B_API_KEY: 'test-key',
        AI_B_MODEL: 'small-b',
        AI_TIMEOUT_MS: '5000',
      },
    ).ai,
  );
  draft = buildOfflineLesson(source, options);
});

afterAll(() => fake?.close());

beforeEach(() => {
  fake.behave('small-b', { kind: 'answer' });
});

describe('structureLesson with a model', () => {
  it('uses the model’s objectives, glossary and quiz when they keep the source’s facts', async () => {
    expect(draft.glossary.length).toBeGreaterThanOrEqual(2);
    fake.reply = () => answer();
    const result = await structureLesson(source, { ai, ...options });
    expect(result.engine.label).toBe(MODEL);
    expect(result.lesson.objectives.map((o) => o.verb)).toEqual(['explain', 'identify']);
    expect(result.lesson.quiz.map((q) => q.kind)).toEqual([
      'multiple_choice',
      'cloze',
      'short_answer',
    ]);
    expect(result.lesson.glossary[0]!.definition).toMatch(/^In plain words: /);
    // The sections' text stays the built-in engine's.
    expect(result.lesson.sections.map((s) => s.body)).toEqual(draft.sections.map((s) => s.body));
    expect(result.changes.at(-1)).toBe(
      `${MODEL} rewrote the objectives, glossary, quiz: 2 sections, 2 objectives, 4 glossary terms, a quiz of 3 (1 multiple choice, 1 cloze, 1 short answer).`,
    );
    // The model saw the source and the draft.
    expect(fake.textOf(fake.requests.at(-1)!)).toContain('Jan Ingenhousz showed in 1779');
  });

  it('refuses a glossary that drops key terms and a quiz with a figure the source does not state, saying why', async () => {
    const dropped = draft.glossary[0]!.term;
    fake.reply = () =>
      answer({
        glossary: draft.glossary.slice(1).map((g) => ({ term: g.term, definition: g.definition })),
        quiz: [
          {
            kind: 'multiple_choice',
            prompt: 'In which year did Jan Ingenhousz show that plants need light?',
            choices: ['1781', '1779', '1804'],
            answerIndex: 0,
          },
          { kind: 'cloze', text: 'Chlorophyll is the green ____.', answer: 'pigment' },
          {
            kind: 'short_answer',
            prompt: 'Where does the Calvin cycle run?',
            referenceAnswer: 'In the stroma.',
            keyPoints: ['stroma', 'around the thylakoids'],
          },
        ],
      });
    const result = await structureLesson(source, { ai, ...options });
    expect(result.lesson.glossary).toEqual(draft.glossary);
    expect(result.lesson.quiz).toEqual(draft.quiz);
    // The objectives passed, so the stage is still the model's.
    expect(result.engine.label).toBe(MODEL);
    expect(result.lesson.objectives[0]!.verb).toBe('explain');
    expect(result.changes).toContain(
      `${MODEL}'s glossary was refused: its glossary left out key terms of the source (${dropped}); the built-in glossary is kept.`,
    );
    expect(result.changes).toContain(
      `${MODEL}'s quiz was refused: its quiz states 1781, 1804, which the source does not; the built-in quiz is kept.`,
    );
  });

  it('keeps the built-in lesson when every part is refused, and the stage is the built-in engine’s', async () => {
    fake.reply = () =>
      answer({
        objectives: [
          { verb: 'explain', text: 'Explain why 40 percent of light is lost.' },
          { verb: 'describe', text: 'Describe the 2 stages.' },
        ],
        glossary: [{ term: 'Leaf', definition: 'A leaf.' }],
        quiz: [
          { kind: 'cloze', text: 'About ____ percent of light is used.', answer: '12' },
          { kind: 'cloze', text: 'The ____ is green.', answer: 'leaf' },
          { kind: 'cloze', text: 'Light has ____ colours.', answer: '7' },
        ],
      });
    const result = await structureLesson(source, { ai, ...options });
    expect(result.lesson).toEqual(draft);
    expect(result.engine.label).toBe('Built-in offline engine');
    expect(result.changes).toContain(
      `${MODEL} answered; none of its changes passed the checks, so the built-in draft is kept.`,
    );
    expect(
      result.changes.filter((c) => c.includes('was refused') || c.includes('were refused')),
    ).toHaveLength(3);
  });

  it('falls back to the built-in engine when the model fails or answers garbage, and says so', async () => {
    fake.behave('small-b', { kind: 'error', status: 500 });
    const failed = await structureLesson(source, { ai, ...options });
    expect(failed.lesson).toEqual(draft);
    expect(failed.engine.label).toBe('Built-in offline engine');
    expect(failed.changes.at(-1)).toBe(
      `No AI model answered: ${MODEL} (The fake server failed on purpose.); the built-in draft is kept.`,
    );
    expect(failed.changes.at(-1)).toContain(MODEL);

    fake.behave('small-b', { kind: 'answer' });
    fake.reply = () => 'Here is a better lesson, I hope you like it!';
    const garbled = await structureLesson(source, { ai, ...options });
    expect(garbled.lesson).toEqual(draft);
    expect(garbled.engine.label).toBe('Built-in offline engine');
    expect(garbled.changes.at(-1)).toBe(
      `${MODEL} answered, but the reply holds no JSON object; the built-in draft is kept.`,
    );
  });
});
