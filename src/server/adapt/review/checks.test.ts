import { describe, expect, it } from 'vitest';
import { maskMarkdown, reviewMarkdown } from './checks';

function only(check: string, markdown: string, grade = 8) {
  return reviewMarkdown(markdown, 'intro', grade).filter((f) => f.check === check);
}

describe('reviewMarkdown', () => {
  it('equality: flags exclusive words with their place and a replacement', () => {
    const [finding] = only(
      'retext-equality',
      'Intro line.\n\nAsk the chairman to open the meeting.',
    );
    expect(finding).toMatchObject({
      place: { sectionId: 'intro', line: 3, column: 9 },
      excerpt: 'chairman',
      replacement: 'chair',
      suggestion: 'Use “chair” or “head” or “chairperson” instead.',
    });
  });

  it('profanities: flags a profane word and suggests a neutral one', () => {
    const [finding] = only('retext-profanities', 'That result is damn strange.');
    expect(finding).toMatchObject({ excerpt: 'damn', place: { line: 1, column: 16 } });
    expect(finding!.suggestion).toBe('Remove it or choose a neutral word.');
    expect(finding!.replacement).toBeNull();
  });

  it('passive: flags the passive verb and suggests the active voice', () => {
    const [finding] = only('retext-passive', 'The results were written in a table.');
    expect(finding).toMatchObject({ excerpt: 'written', place: { line: 1, column: 18 } });
    expect(finding!.suggestion).toMatch(/active voice/);
  });

  it('simplify: flags wordy phrases with the plain word', () => {
    const [finding] = only('retext-simplify', 'You must utilize the scale.');
    expect(finding).toMatchObject({ excerpt: 'utilize', replacement: 'use' });
  });

  it('readability: flags a sentence too hard for the target grade', () => {
    const hard =
      'Notwithstanding the aforementioned considerations, the implementation of the comprehensive methodology necessitated substantial organizational restructuring.';
    expect(only('retext-readability', hard, 6)).toHaveLength(1);
    expect(only('retext-readability', 'The cat sat on the mat.', 6)).toHaveLength(0);
  });

  it('places findings in the Markdown itself, past list markers, emphasis and links', () => {
    const markdown = '## Heading\n\n- A **chairman** and [a fireman](https://example.org) came.';
    const findings = only('retext-equality', markdown);
    expect(findings.map((f) => [f.excerpt, f.place.line, f.place.column])).toEqual([
      ['chairman', 3, 7],
      ['fireman', 3, 25],
    ]);
    expect(maskMarkdown(markdown)).toHaveLength(markdown.length);
  });

  it('does not read code blocks', () => {
    expect(reviewMarkdown('```\nchairman = damn\n```', 'code', 8)).toEqual([]);
  });
});
