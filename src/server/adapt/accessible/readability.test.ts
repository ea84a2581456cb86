import { describe, expect, it } from 'vitest';
import { measureReadability } from './readability';
import { simplifyMarkdown } from './simplify';

const academic =
  'Notwithstanding the aforementioned considerations, the implementation of the comprehensive ' +
  'methodology necessitated substantial organizational restructuring, and the committee ' +
  'subsequently commenced an additional evaluation of interdepartmental collaboration.';

describe('measureReadability', () => {
  it('counts sentences, words and syllables of the prose and grades it', () => {
    const score = measureReadability('# The cat\n\nThe cat sat on the mat. It was happy.');
    expect(score).toMatchObject({ sentences: 3, words: 11 });
    expect(score.grade).toBeLessThan(3);
  });

  it('grades academic prose far above plain prose', () => {
    expect(measureReadability(academic).grade).toBeGreaterThan(18);
  });

  it('leaves code blocks out and scores empty text as zero', () => {
    expect(measureReadability('```\nconst averyveryverylongidentifier = 1;\n```').words).toBe(0);
    expect(measureReadability('').grade).toBe(0);
  });
});

describe('simplifyMarkdown', () => {
  it('lowers the measured grade with plainer words and shorter sentences', () => {
    const before = measureReadability(academic).grade;
    const result = simplifyMarkdown(academic, { targetGrade: 8 });
    const after = measureReadability(result.markdown).grade;
    expect(after).toBeLessThan(before);
    expect(result.replacements).toContain('additional → added');
    expect(result.sentencesSplit).toBeGreaterThan(0);
    expect(result.markdown).toMatch(/^Despite the /);
  });

  it('keeps protected key terms as written', () => {
    const result = simplifyMarkdown('We utilize the additional reagent.', {
      targetGrade: 8,
      protectedTerms: ['additional reagent'],
    });
    expect(result.markdown).toBe('We use the additional reagent.');
  });

  it('splits long sentences to the asked length, leaving headings, lists markers and code alone', () => {
    const markdown =
      '## Utilize the method\n\n' +
      '- The students measured the temperature every hour, and they recorded the values in a shared table for later analysis.\n\n' +
      '```\nutilize(x), and more code that is long enough to split if it were prose\n```';
    const result = simplifyMarkdown(markdown, { targetGrade: 4, maxSentenceWords: 12 });
    expect(result.markdown).toContain('## Use the method');
    expect(result.markdown).toContain(
      '- The students measured the temperature every hour. They recorded the values in a shared table for later analysis.',
    );
    expect(result.markdown).toContain('utilize(x), and more code');
  });

  it('keeps every number, date and name of the text', () => {
    const text =
      'In 1779 Jan Ingenhousz showed that plants need light, and a leaf converts approximately 3 percent of it into chemical energy.';
    const result = simplifyMarkdown(text, { targetGrade: 5, maxSentenceWords: 10 });
    for (const fact of ['1779', 'Jan Ingenhousz', '3 percent'])
      expect(result.markdown).toContain(fact);
  });
});
