import { describe, expect, it } from 'vitest';
import {
  bookStyles,
  contrastRatio,
  loadAppearance,
  parseAppearance,
  readerThemes,
  saveAppearance,
  stepTextSize,
} from './reader-appearance';

describe('reader themes', () => {
  it.each(Object.entries(readerThemes))('%s has AA contrast for text and links', (_, theme) => {
    expect(contrastRatio(theme.text, theme.background)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(theme.link, theme.background)).toBeGreaterThanOrEqual(4.5);
  });

  it('measures contrast as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  it('puts the theme colours and size into the book', () => {
    const css = bookStyles(
      { theme: 'sepia', textSize: 150 },
      { dyslexicFont: true, lineSpacing: 'loose' },
    );
    expect(css).toContain('font-size: 150%');
    expect(css).toContain(readerThemes.sepia.background);
    // foliate paints the margins with it when the theme changes after the chapter loaded.
    expect(css).toContain(`--theme-bg-color: ${readerThemes.sepia.background}`);
    expect(css).toContain('OpenDyslexic');
    expect(css).toContain('line-height: 2.1');
    expect(
      bookStyles({ theme: 'dark', textSize: 100 }, { dyslexicFont: false, lineSpacing: 'default' }),
    ).not.toContain('OpenDyslexic');
  });
});

describe('text size', () => {
  it('steps up and down and stops at either end', () => {
    expect(stepTextSize(100, 1)).toBe(110);
    expect(stepTextSize(100, -1)).toBe(90);
    expect(stepTextSize(200, 1)).toBe(200);
    expect(stepTextSize(80, -1)).toBe(80);
    expect(stepTextSize(133, 1)).toBe(110);
  });
});

describe('stored appearance', () => {
  it('reads back what was saved and repairs anything else', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    saveAppearance(storage, { theme: 'dark', textSize: 125 });
    expect(loadAppearance(storage)).toEqual({ theme: 'dark', textSize: 125 });
    expect(parseAppearance({ theme: 'neon', textSize: 9000 })).toEqual({
      theme: 'light',
      textSize: 100,
    });
    expect(loadAppearance({ getItem: () => '{not json' })).toEqual({
      theme: 'light',
      textSize: 100,
    });
  });
});
