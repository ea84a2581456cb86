/**
 * The ePub reader's themes and text sizes, and the style sheet they give the book. Colours are
 * chosen for WCAG 2.2 AA (body text and links at least 4.5:1 on the page colour; the unit test
 * measures them). The learner's choice is kept in this browser: it is a property of the screen
 * they read on, not of the book.
 */
export const readerThemes = {
  light: { label: 'Light', background: '#ffffff', text: '#1f2328', link: '#0b57d0' },
  sepia: { label: 'Sepia', background: '#f4ecd8', text: '#3b2f1e', link: '#7a3e00' },
  dark: { label: 'Dark', background: '#16181d', text: '#e6e6e6', link: '#8ab4f8' },
} as const;
export type ReaderTheme = keyof typeof readerThemes;

/** Text sizes in per cent of the book's own, in the steps the A−/A+ buttons take. */
export const textSizeSteps = [80, 90, 100, 110, 125, 150, 175, 200] as const;

export interface ReaderAppearance {
  theme: ReaderTheme;
  textSize: number;
}

export const defaultAppearance: ReaderAppearance = { theme: 'light', textSize: 100 };

const STORAGE_KEY = 'lyceum-epub-reader';

export function parseAppearance(value: unknown): ReaderAppearance {
  const v = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  return {
    theme:
      typeof v.theme === 'string' && v.theme in readerThemes ? (v.theme as ReaderTheme) : 'light',
    textSize: (textSizeSteps as readonly number[]).includes(v.textSize as number)
      ? (v.textSize as number)
      : 100,
  };
}

export function loadAppearance(storage: Pick<Storage, 'getItem'> | undefined): ReaderAppearance {
  try {
    return parseAppearance(JSON.parse(storage?.getItem(STORAGE_KEY) ?? 'null'));
  } catch {
    return defaultAppearance;
  }
}

export function saveAppearance(
  storage: Pick<Storage, 'setItem'> | undefined,
  appearance: ReaderAppearance,
): void {
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(appearance));
  } catch {
    // Private browsing or a full quota: the choice holds for this visit only.
  }
}

/** The next text size up (+1) or down (−1); the same size at either end. */
export function stepTextSize(current: number, direction: 1 | -1): number {
  const steps = textSizeSteps as readonly number[];
  const index = steps.indexOf(current);
  const from = index < 0 ? steps.indexOf(100) : index;
  return steps[Math.min(steps.length - 1, Math.max(0, from + direction))]!;
}

/** The app-wide accessibility preferences (decision 0170) the book follows too. */
export interface AppReadingPreferences {
  dyslexicFont: boolean;
  lineSpacing: 'default' | 'relaxed' | 'loose';
}

const lineHeights = { default: '1.5', relaxed: '1.8', loose: '2.1' } as const;

/**
 * The style sheet foliate puts in each chapter. The theme's colours override the book's (a
 * book's own dark-on-white text would vanish on the dark theme); sizes scale the book's own.
 * foliate paints the margins around the text with the colour it read from the chapter when
 * the chapter loaded, unless `--theme-bg-color` names one: without it, a theme chosen later
 * left the old colour (white around a dark page).
 */
export function bookStyles(
  { theme, textSize }: ReaderAppearance,
  { dyslexicFont, lineSpacing }: AppReadingPreferences,
): string {
  const colours = readerThemes[theme];
  return `
    @namespace epub "http://www.idpf.org/2007/ops";
    html {
      color-scheme: ${theme === 'dark' ? 'dark' : 'light'};
      font-size: ${textSize}% !important;
      --theme-bg-color: ${colours.background};
    }
    html, body { background: ${colours.background} !important; color: ${colours.text} !important; }
    body * { color: inherit !important; background-color: transparent !important; border-color: currentColor; }
    a:any-link, a:any-link * { color: ${colours.link} !important; text-decoration: underline; }
    ${dyslexicFont ? "body, body * { font-family: 'OpenDyslexic', ui-sans-serif, system-ui, sans-serif !important; }" : ''}
    p, li, blockquote, dd, dt, td, th { line-height: ${lineHeights[lineSpacing]} !important; }
    pre { white-space: pre-wrap !important; }
    img, svg, video { max-width: 100%; height: auto; }
    aside[epub|type~="footnote"], aside[epub|type~="endnote"], aside[epub|type~="note"] { display: none; }
  `;
}

/** WCAG 2.x contrast ratio of two `#rrggbb` colours. */
export function contrastRatio(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}
