import { describe, expect, it } from 'vitest';
import { bankQuestionSchema } from '../../learning/course-content';
import { makeAccessible } from '../accessible/accessible-stage';
import { adaptTestLesson } from '../adapt-test-lesson';
import { bankQuestionsOf, slugify } from './bank-questions';

describe('bankQuestionsOf', () => {
  it('turns every quiz kind into a bank question the learning app accepts', async () => {
    const { lesson } = await makeAccessible(
      adaptTestLesson(),
      { profile: 'ell', targetGrade: 8, translateTo: null },
      { ai: null },
    );
    const questions = bankQuestionsOf(lesson);
    for (const q of questions) expect(bankQuestionSchema.safeParse(q).error).toBeUndefined();
    expect(questions.map((q) => [q.id, q.type])).toEqual([
      ['photosynthesis-gas-released', 'multiple_choice'],
      ['photosynthesis-pigment', 'short_text'],
      ['photosynthesis-why-light', 'short_text'],
    ]);
    const [choice, cloze, open] = questions;
    expect(choice).toMatchObject({ answer: { choice: 'a' } });
    expect(choice!.misconceptions.map((m) => m.choice)).toEqual(['b', 'c']);
    expect(cloze).toMatchObject({
      prompt: 'Fill in the gap: The green pigment in chloroplasts is called ____.',
      answer: { text: 'chlorophyll' },
    });
    expect(open!.key_points).toContain('light provides energy');
  });

  it('still makes valid questions from a lesson with no glossary and one question', async () => {
    const source = { ...adaptTestLesson(), glossary: [] };
    source.quiz = source.quiz.slice(2);
    source.quiz[0]!.keyPoints = [];
    const { lesson } = await makeAccessible(
      source,
      { profile: 'none', targetGrade: 8, translateTo: null },
      { ai: null },
    );
    const [q] = bankQuestionsOf(lesson);
    expect(bankQuestionSchema.safeParse(q).error).toBeUndefined();
  });

  it('makes slugs the database accepts', () => {
    expect(slugify('Ökologie & Photosynthese: Teil 2!')).toBe('okologie-photosynthese-teil-2');
    expect(slugify('???')).toBe('lesson');
  });
});
