/**
 * Text utilities of the structuring stage: sentences, words, headings and slugs, written for
 * course material in English (the built-in engine's language).
 */

const ABBREVIATIONS =
  /\b(?:e\.g|i\.e|etc|vs|Dr|Mr|Mrs|Ms|Prof|St|No|Fig|approx|cf|al|Inc|Ltd|Jr|Sr)\.$/i;

/** Sentences of a paragraph; an abbreviation or a decimal point does not end one. */
export function sentences(text: string): string[] {
  const parts = text
    .replace(/\s+/g, ' ')
    .trim()
    .split(/(?<=[.!?])\s+(?=["“(‘']?[A-Z0-9])/);
  const out: string[] = [];
  for (const part of parts) {
    const last = out.at(-1);
    if (last !== undefined && ABBREVIATIONS.test(last)) out[out.length - 1] = `${last} ${part}`;
    else out.push(part);
  }
  return out.map((s) => s.trim()).filter((s) => s.length > 0);
}

export const STOP_WORDS = new Set(
  `a about above after again against all also am an and any are as at be because been before being below between both but by can could did do does doing down during each few for from further had has have having he her here hers herself him himself his how however i if in into is it its itself just let me more most my myself no nor not now of off on once only or other our ours ourselves out over own same she should so some such than that the their theirs them themselves then there these they this those through thus to too under until up upon very was we were what when where which while who whom why will with within without would you your yours yourself yourselves one two three first second new used use using may might must shall often many much every called known refers means defined example examples section chapter page part figure table`.split(
    /\s+/,
  ),
);

/** Lower-case words of three letters or more, not stop words. */
export function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}][\p{L}\p{N}'-]*[\p{L}\p{N}]/gu) ?? []).filter(
    (w) => w.length >= 3 && !STOP_WORDS.has(w),
  );
}

export function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => w !== '').length;
}

/** A heading-like line: short, no sentence punctuation at the end, starts with a capital or a number. */
export function looksLikeHeading(line: string): boolean {
  const trimmed = line.trim();
  if (trimmed.length < 3 || trimmed.length > 80) return false;
  if (/[.,;:!?]$/.test(trimmed) && !/^\d+(\.\d+)*\.$/.test(trimmed.split(' ')[0] ?? '')) {
    return false;
  }
  const words = trimmed.split(/\s+/);
  if (words.length > 10) return false;
  if (!/^(?:\d+(?:\.\d+)*\.?\s+)?["“]?[A-Z]/.test(trimmed)) return false;
  // Headings have few small words; a sentence fragment has many.
  const lower = words.filter((w) => /^[a-z]/.test(w) && !STOP_WORDS.has(w)).length;
  return lower <= Math.max(2, words.length / 2) && /[A-Za-z]{3}/.test(trimmed);
}

/** "1.2 The Water Cycle" → "The Water Cycle". */
export function cleanHeading(line: string): string {
  return line
    .replace(/^#+\s*/, '')
    .replace(/^(?:chapter|section|unit|part)\s+\d+[:.]?\s*/i, '')
    .replace(/^\d+(?:\.\d+)*\.?\s+/, '')
    .trim();
}

export function slugify(text: string, taken: Set<string>): string {
  const base =
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .replace(/-+$/, '') || 'section';
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
  taken.add(slug);
  return slug;
}

/** Escapes a string for use inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
