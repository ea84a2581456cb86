import { describe, expect, it } from 'vitest';
import type { QuizQuestion } from './api/get-quiz';
import { parseQuizDraft } from './quiz-answers';

const questions: QuizQuestion[] = [
  {
    id: 'q1',
    position: 1,
    type: 'multiple_choice',
    prompt: 'Which gas?',
    choices: [
      { id: 'a', text: 'Oxygen' },
      { id: 'b', text: 'Nitrogen' },
    ],
  },
  { id: 'q2', position: 2, type: 'numeric', prompt: 'Breaths per minute?', choices: null },
  { id: 'q3', position: 3, type: 'short_text', prompt: 'Explain.', choices: null },
];

describe('parseQuizDraft', () => {
  it('turns a complete draft into the procedure’s answer shapes', () => {
    expect(parseQuizDraft(questions, { q1: 'a', q2: ' 12,5 ', q3: ' Diffusion ' })).toEqual({
      ok: true,
      answers: { q1: { choice: 'a' }, q2: { value: 12.5 }, q3: { text: 'Diffusion' } },
    });
  });

  it('names what is wrong with each question', () => {
    expect(parseQuizDraft(questions, { q1: 'z', q2: 'twelve', q3: '   ' })).toEqual({
      ok: false,
      errors: {
        q1: 'Choose one of the answers.',
        q2: 'Enter a number, such as 12 or 0.5.',
        q3: 'Write your answer.',
      },
    });
    expect(parseQuizDraft(questions, {})).toMatchObject({
      ok: false,
      errors: { q2: 'Enter a number.' },
    });
  });
});
