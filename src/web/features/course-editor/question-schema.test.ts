import { describe, expect, it } from 'vitest';
import { zodFieldErrors } from './editor-form';
import {
  draftOfQuestion,
  emptyQuestion,
  nextChoiceId,
  questionFromDraft,
  questionRow,
  questionSchema,
  questionSlug,
  type QuestionDraft,
  type StoredQuestion,
} from './question-schema';

function filled(): QuestionDraft {
  return {
    ...emptyQuestion(),
    prompt: 'Which gas passes from the alveoli into the blood?',
    choices: [
      { id: 'a', text: 'Oxygen' },
      { id: 'b', text: 'Nitrogen' },
      { id: 'c', text: 'Carbon dioxide' },
    ],
    correctChoice: 'a',
    keyPoints: ['Alveoli are thin-walled', 'Gases diffuse down their gradient'],
    hints: ['What does the blood carry to the cells?', 'We breathe in for it.'],
    workedExample: 'Carbon dioxide moves the other way.',
    misconceptions: [
      { misconception: 'The lungs absorb nitrogen', feedback: 'It is not absorbed.', choice: 'b' },
    ],
    difficulty: '2',
    concept: 'Diffusion',
    refresher: 'Molecules spread out.',
    basics: [
      { ...emptyQuestion().basics[0]!, prompt: 'Is diffusion passive?', referenceText: 'Yes' },
      {
        ...emptyQuestion().basics[1]!,
        type: 'numeric',
        prompt: 'Percent of oxygen in air?',
        value: '21',
        tolerance: '1',
        unit: '%',
      },
    ],
  };
}

describe('question schema', () => {
  it('turns a complete form into the row the database checks', () => {
    const parsed = questionSchema.parse(questionFromDraft(filled()));
    const row = questionRow(parsed);
    expect(row).toMatchObject({
      type: 'multiple_choice',
      choices: [
        { id: 'a', text: 'Oxygen' },
        { id: 'b', text: 'Nitrogen' },
        { id: 'c', text: 'Carbon dioxide' },
      ],
      answer: { choice: 'a' },
      difficulty: 2,
      misconceptions: [
        {
          misconception: 'The lungs absorb nitrogen',
          feedback: 'It is not absorbed.',
          choice: 'b',
        },
      ],
      prerequisite: {
        concept: 'Diffusion',
        questions: [
          { prompt: 'Is diffusion passive?', type: 'short_text', answer: { text: 'Yes' } },
          {
            prompt: 'Percent of oxygen in air?',
            type: 'numeric',
            answer: { value: 21, tolerance: 1, unit: '%' },
          },
        ],
      },
    });
    // A stored row comes back as the same form.
    expect(draftOfQuestion(row as unknown as StoredQuestion)).toEqual(filled());
  });

  it('puts each problem under its field', () => {
    const draft = filled();
    draft.choices = [...draft.choices.slice(0, 2), { id: 'c', text: ' ' }];
    draft.correctChoice = '';
    draft.hints = ['One hint'];
    draft.keyPoints = ['a', ''];
    draft.misconceptions = [{ misconception: 'x', feedback: '', choice: 'c' }];
    draft.basics = [{ ...draft.basics[1]!, value: 'many' }];
    const result = questionSchema.safeParse(questionFromDraft(draft));
    expect(result.success).toBe(false);
    expect(zodFieldErrors(result.error!)).toMatchObject({
      'choices.2.text': 'Write this choice, or remove it.',
      correctChoice: 'Mark the correct choice.',
      hints: 'Give 2 to 4 hints.',
      'keyPoints.1': 'Write this key point, or remove it.',
      'misconceptions.0.feedback': 'Write the feedback.',
      'prerequisite.questions': 'Give 2 to 4 basic questions.',
      'prerequisite.questions.0.value': 'Enter the correct value as a number.',
    });
  });

  it('refuses feedback tied to the correct choice and a negative tolerance', () => {
    const draft = filled();
    draft.misconceptions = [{ misconception: 'x', feedback: 'y', choice: 'a' }];
    const tied = questionSchema.safeParse(questionFromDraft(draft));
    expect(zodFieldErrors(tied.error!)['misconceptions.0.choice']).toMatch(/wrong choice/);

    const numeric = { ...filled(), type: 'numeric' as const, value: '12', tolerance: '-1' };
    numeric.misconceptions = [{ misconception: 'x', feedback: 'y', choice: '' }];
    const negative = questionSchema.safeParse(questionFromDraft(numeric));
    expect(zodFieldErrors(negative.error!)).toEqual({
      tolerance: 'Enter a tolerance of 0 or more (0: exactly the value).',
    });
  });

  it('names new questions and choices', () => {
    expect(questionSlug('What is 2 + 2, exactly? Think!', 'x1y2')).toBe(
      'what-is-2-2-exactly-think-x1y2',
    );
    expect(questionSlug('¿¡!', 'x1y2')).toBe('question-x1y2');
    expect(
      nextChoiceId([
        { id: 'a', text: '' },
        { id: 'c', text: '' },
      ]),
    ).toBe('b');
  });
});
