import { describe, expect, it } from 'vitest';
import {
  fitWidthScale,
  layoutPages,
  MAX_SCALE,
  MIN_SCALE,
  PAGE_GAP,
  pageAt,
  pagesNear,
  parsePageNumber,
  zoomIn,
  zoomOut,
} from './page-layout';

const letter = { width: 612, height: 792 };

describe('page layout', () => {
  it('stacks pages with a gap and knows the column height', () => {
    const layout = layoutPages([letter, letter, { width: 792, height: 612 }], 0.5);
    expect(layout.tops).toEqual([PAGE_GAP, PAGE_GAP * 2 + 396, PAGE_GAP * 3 + 792]);
    expect(layout.total).toBe(PAGE_GAP * 4 + 396 * 2 + 306);
  });

  it('finds the page under the top third of the viewport', () => {
    const layout = layoutPages(Array(300).fill(letter), 1);
    expect(pageAt(layout, 0, 900)).toBe(1);
    expect(pageAt(layout, layout.tops[149]!, 900)).toBe(150);
    expect(pageAt(layout, layout.total, 900)).toBe(300);
  });

  it('lists only the pages near the viewport of a 300-page file', () => {
    const layout = layoutPages(Array(300).fill(letter), 1);
    expect(pagesNear(layout, 0, 900, 0)).toEqual([1, 2]);
    expect(pagesNear(layout, layout.tops[99]!, 900, 900)).toEqual([98, 99, 100, 101, 102]);
  });

  it('zooms in steps within its bounds and fits the widest page to the column', () => {
    expect(zoomIn(1)).toBe(1.1);
    expect(zoomOut(1)).toBe(0.9);
    expect(zoomIn(0.93)).toBe(1);
    expect(zoomIn(MAX_SCALE)).toBe(MAX_SCALE);
    expect(zoomOut(MIN_SCALE)).toBe(MIN_SCALE);
    expect(fitWidthScale([letter], 612 + 2 * PAGE_GAP)).toBe(1);
    expect(fitWidthScale([letter], 10)).toBe(MIN_SCALE);
  });

  it('accepts only a whole page number within the document', () => {
    expect(parsePageNumber(' 12 ', 300)).toBe(12);
    expect(parsePageNumber('0', 300)).toBeNull();
    expect(parsePageNumber('301', 300)).toBeNull();
    expect(parsePageNumber('1.5', 300)).toBeNull();
    expect(parsePageNumber('two', 300)).toBeNull();
  });
});
