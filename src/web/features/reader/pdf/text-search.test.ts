import { describe, expect, it } from 'vitest';
import { findInPages, firstHitFrom } from './text-search';

describe('find in document', () => {
  const pages = ['Gas exchange in the alveoli.', 'No match here.', 'ALVEOLI and alveolí, alveoli'];

  it('finds every occurrence on every page, ignoring case and accents, in reading order', () => {
    expect(findInPages(pages, 'alveoli')).toEqual([
      { page: 1, start: 20, end: 27 },
      { page: 3, start: 0, end: 7 },
      { page: 3, start: 12, end: 19 },
      { page: 3, start: 21, end: 28 },
    ]);
  });

  it('finds nothing for an empty phrase or one that is absent', () => {
    expect(findInPages(pages, '   ')).toEqual([]);
    expect(findInPages(pages, 'surfactant')).toEqual([]);
  });

  it('starts from the first hit on or after the current page, wrapping to the first', () => {
    const hits = findInPages(pages, 'alveoli');
    expect(firstHitFrom(hits, 2)).toBe(1);
    expect(firstHitFrom(hits, 1)).toBe(0);
    expect(firstHitFrom([{ page: 1, start: 0, end: 1 }], 5)).toBe(0);
    expect(firstHitFrom([], 1)).toBe(-1);
  });
});
