/**
 * Find in document: every place a phrase occurs in the pages' text, as character offsets into
 * each page's text as the text layer lays it out (the same offsets highlights use, decision
 * 0150), so a hit can be marked on the page and stepped through in reading order.
 */

export interface TextHit {
  /** 1-based page. */
  page: number;
  start: number;
  end: number;
}

/** Case- and accent-insensitive folding that keeps one character per character. */
function fold(text: string): string {
  let out = '';
  for (const char of text) {
    const base = char.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    out += (base.length === char.length ? base : char).toLowerCase();
  }
  return out;
}

export const MAX_HITS = 5000;

export function findInPages(pageTexts: readonly string[], phrase: string): TextHit[] {
  const needle = fold(phrase.trim());
  if (!needle) return [];
  const hits: TextHit[] = [];
  pageTexts.forEach((text, index) => {
    const haystack = fold(text);
    let at = haystack.indexOf(needle);
    while (at >= 0 && hits.length < MAX_HITS) {
      hits.push({ page: index + 1, start: at, end: at + needle.length });
      at = haystack.indexOf(needle, at + needle.length);
    }
  });
  return hits;
}

/** The hit to show first: the first on or after the page the reader is on. */
export function firstHitFrom(hits: readonly TextHit[], page: number): number {
  if (hits.length === 0) return -1;
  const index = hits.findIndex((hit) => hit.page >= page);
  return index < 0 ? 0 : index;
}
