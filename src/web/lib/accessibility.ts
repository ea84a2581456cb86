/**
 * The learner's accessibility preferences, applied to the whole app (decision 0170). They are
 * stored on the server (`public.user_preferences`) and remembered in this browser, so the
 * inline script in index.html can set the same `data-a11y-*` attributes on <html> before the
 * first paint; styles.css reads the attributes. This module is the one place that maps a
 * preference to an attribute.
 */

export const textSizes = ['default', 'large', 'larger', 'largest'] as const;
export const lineSpacings = ['default', 'relaxed', 'loose'] as const;
export const fonts = ['default', 'dyslexic'] as const;

export interface AccessibilityPreferences {
  textSize: (typeof textSizes)[number];
  lineSpacing: (typeof lineSpacings)[number];
  font: (typeof fonts)[number];
  reducedMotion: boolean;
  highContrast: boolean;
  readingRuler: boolean;
}

export const defaultAccessibility: AccessibilityPreferences = {
  textSize: 'default',
  lineSpacing: 'default',
  font: 'default',
  reducedMotion: false,
  highContrast: false,
  readingRuler: false,
};

/** The browser's copy; index.html reads the same key. */
export const ACCESSIBILITY_STORAGE_KEY = 'lyceum-a11y';

function oneOf<T extends string>(list: readonly T[], value: unknown, fallback: T): T {
  return list.includes(value as T) ? (value as T) : fallback;
}

/** Anything read back (storage, a row) becomes a valid set of preferences. */
export function parseAccessibility(value: unknown): AccessibilityPreferences {
  const v = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  return {
    textSize: oneOf(textSizes, v.textSize, 'default'),
    lineSpacing: oneOf(lineSpacings, v.lineSpacing, 'default'),
    font: oneOf(fonts, v.font, 'default'),
    reducedMotion: v.reducedMotion === true,
    highContrast: v.highContrast === true,
    readingRuler: v.readingRuler === true,
  };
}

/** The attributes on <html>; a default value removes its attribute. */
export function accessibilityAttributes(
  prefs: AccessibilityPreferences,
): Record<string, string | null> {
  return {
    'data-a11y-text': prefs.textSize === 'default' ? null : prefs.textSize,
    'data-a11y-spacing': prefs.lineSpacing === 'default' ? null : prefs.lineSpacing,
    'data-a11y-font': prefs.font === 'default' ? null : prefs.font,
    'data-a11y-motion': prefs.reducedMotion ? 'reduce' : null,
    'data-a11y-contrast': prefs.highContrast ? 'more' : null,
  };
}

let fontLoaded: Promise<unknown> | undefined;

/** Sets the attributes, and loads the dyslexia-friendly font only when it is chosen. */
export function applyAccessibility(
  prefs: AccessibilityPreferences,
  root = document.documentElement,
) {
  for (const [name, value] of Object.entries(accessibilityAttributes(prefs))) {
    if (value === null) root.removeAttribute(name);
    else root.setAttribute(name, value);
  }
  if (prefs.font === 'dyslexic') {
    // OpenDyslexic (SIL Open Font License), self-hosted from @fontsource: its CSS and font
    // files are a separate chunk that nobody else downloads.
    fontLoaded ??= Promise.all([
      import('@fontsource/opendyslexic/400.css'),
      import('@fontsource/opendyslexic/700.css'),
    ]);
  }
}

export function rememberAccessibility(prefs: AccessibilityPreferences): void {
  try {
    localStorage.setItem(ACCESSIBILITY_STORAGE_KEY, JSON.stringify(prefs));
  } catch {
    // Storage blocked: the preferences still apply from the server on each load.
  }
}

export function rememberedAccessibility(): AccessibilityPreferences {
  try {
    return parseAccessibility(JSON.parse(localStorage.getItem(ACCESSIBILITY_STORAGE_KEY) ?? '{}'));
  } catch {
    return defaultAccessibility;
  }
}
