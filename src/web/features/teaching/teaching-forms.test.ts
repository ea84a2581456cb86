import { describe, expect, it } from 'vitest';
import { assignmentSchema } from './api/assignments';
import { goalSchema } from './api/goals';
import { gradingSchema } from './api/grading';
import { fieldErrors } from './teaching-fields';

const id = '3f1c2a9e-0d7b-4c55-9a51-2b8e6f0c1d23';
const now = new Date('2026-11-23T12:00:00');

function errorsOf(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  return result.success ? {} : fieldErrors(result.error!.issues);
}

describe('the assignment form', () => {
  it('accepts a lesson or quiz with a future due date', () => {
    const result = assignmentSchema(now).safeParse({
      target: `quiz:${id}`,
      title: '  Lungs quiz ',
      dueAt: '2026-11-30T17:00',
      instructions: '',
    });
    expect(result.success && result.data.title).toBe('Lungs quiz');
  });

  it('says which field is wrong', () => {
    expect(
      errorsOf(
        assignmentSchema(now).safeParse({
          target: '',
          title: ' ',
          dueAt: '2026-11-01T09:00',
          instructions: 'x'.repeat(5001),
        }),
      ),
    ).toEqual({
      target: 'Choose the lesson or quiz to assign.',
      title: 'Give the assignment a title.',
      dueAt: 'The due date must be in the future.',
      instructions: 'Instructions are limited to 5,000 characters.',
    });
    expect(
      errorsOf(
        assignmentSchema(now).safeParse({
          target: `lesson:${id}`,
          title: 'x',
          dueAt: 'soon',
          instructions: '',
        }),
      ),
    ).toEqual({ dueAt: 'Enter a valid date and time.' });
  });
});

describe('the goal form', () => {
  it('needs the target its kind names', () => {
    expect(
      errorsOf(
        goalSchema.safeParse({ kind: 'complete_module', moduleId: '', dueOn: '', note: '' }),
      ),
    ).toEqual({
      moduleId: 'Choose the module.',
    });
    expect(
      errorsOf(
        goalSchema.safeParse({
          kind: 'reach_score',
          assessmentId: id,
          targetScore: '',
          dueOn: '',
          note: '',
        }),
      ),
    ).toEqual({ targetScore: 'Enter a score from 0 to 100.' });
    expect(
      errorsOf(
        goalSchema.safeParse({
          kind: 'reach_score',
          assessmentId: id,
          targetScore: '101',
          dueOn: '',
          note: '',
        }),
      ),
    ).toEqual({ targetScore: 'Enter a score from 0 to 100.' });
    const ok = goalSchema.safeParse({
      kind: 'reach_score',
      assessmentId: id,
      targetScore: ' 75 ',
      dueOn: '2026-12-15',
      note: '',
    });
    expect(ok.success && ok.data.kind === 'reach_score' && ok.data.targetScore).toBe(75);
    expect(
      errorsOf(goalSchema.safeParse({ kind: 'complete_course', dueOn: '15/12/2026', note: '' })),
    ).toEqual({ dueOn: 'Enter a date.' });
  });
});

describe('the grading form', () => {
  it('needs a verdict for every answer awaiting one', () => {
    const schema = gradingSchema(['q1', 'q2']);
    expect(errorsOf(schema.safeParse({ verdicts: { q1: 'correct' }, feedback: '' }))).toEqual({
      'verdicts.q2': 'Mark this answer correct, partly correct or incorrect.',
    });
    expect(
      schema.safeParse({ verdicts: { q1: 'correct', q2: 'incorrect' }, feedback: 'Good.' }).success,
    ).toBe(true);
    expect(
      errorsOf(
        schema.safeParse({
          verdicts: { q1: 'correct', q2: 'correct' },
          feedback: 'x'.repeat(10_001),
        }),
      ),
    ).toEqual({ feedback: 'Feedback is limited to 10,000 characters.' });
  });
});
