import { describe, expect, it } from 'vitest';
import { makeAccessible } from '../accessible/accessible-stage';
import { adaptTestLesson } from '../adapt-test-lesson';
import type { ExtractedText } from '../lesson';
import { reviewLesson } from './review-stage';

const lesson = adaptTestLesson();
const source: ExtractedText = {
  format: 'txt',
  title: lesson.title,
  blocks: lesson.sections.map((s, i) => ({
    text: s.body,
    source: { kind: 'paragraph', paragraph: i + 1 },
  })),
};

describe('reviewLesson', () => {
  it('keeps every key fact through simplification for each profile', async () => {
    for (const profile of ['none', 'adhd', 'dyslexia', 'ell'] as const) {
      const accessible = await makeAccessible(
        lesson,
        { profile, targetGrade: 6, translateTo: null },
        { ai: null },
      );
      const { reviewed } = reviewLesson(accessible.lesson, source);
      expect(reviewed.fidelity.lost).toEqual([]);
      expect(reviewed.fidelity.facts.map((f) => f.text)).toEqual(
        expect.arrayContaining(['Jan Ingenhousz', '1779', '3', 'chlorophyll', 'Calvin cycle']),
      );
    }
  });

  it('reports the findings by check and what the gate lost', async () => {
    const { lesson: accessible } = await makeAccessible(
      lesson,
      { profile: 'none', targetGrade: 8, translateTo: null },
      { ai: null },
    );
    const cut = {
      ...accessible,
      sections: accessible.sections.map((s) => ({
        ...s,
        body: s.body.replace('1779', 'the past'),
      })),
    };
    const { reviewed, report } = reviewLesson(cut, source);
    expect(reviewed.fidelity.passed).toBe(false);
    expect(report.stage).toBe('review');
    expect(report.changes[1]).toMatch(/^1 of \d+ key facts of the source are missing: 1779\.$/);
    expect(reviewed.findings.every((f) => f.place.sectionId !== undefined)).toBe(true);
  });
});
