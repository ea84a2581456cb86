/**
 * Plain-text views of lesson Markdown that the readability measure, the review and the audio
 * share: one definition of "a sentence" and "a word" for every stage and export.
 */

const FENCE = /^\s*(```|~~~)/;

/** The prose of a Markdown document: code blocks dropped, markup removed, one block a line. */
export function markdownToPlainText(markdown: string): string {
  const lines: string[] = [];
  let inFence = false;
  for (const raw of markdown.split(/\r?\n/)) {
    if (FENCE.test(raw)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const line = stripInlineMarkup(stripBlockMarker(raw)).trim();
    if (/^[-|: ]+$/.test(line)) continue;
    lines.push(line);
  }
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A Markdown line without its heading, quote, list or table markers. */
export function stripBlockMarker(line: string): string {
  return line
    .replace(/^\s{0,3}#{1,6}\s+/, '')
    .replace(/^\s*>\s?/, '')
    .replace(/^\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?/, '')
    .replace(/^\s*\|/, '')
    .replace(/\|\s*$/, '')
    .replace(/\s*\|\s*/g, ' · ');
}

export function stripInlineMarkup(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^\w*])[*_]([^*_\s][^*_]*?)[*_](?=[^\w*]|$)/g, '$1$2')
    .replace(/<[^>]+>/g, '');
}

/**
 * Sentences of plain text: a line break always ends one (headings, list items), and so does
 * `.`, `!` or `?` followed by space and a capital, a digit or an opening quote.
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const line of text.split(/\n+/)) {
    for (const part of line.split(/(?<=[.!?]["”’)]?)\s+(?=["“‘(]?[\p{Lu}\p{N}])/u)) {
      const sentence = part.trim();
      if (sentence) sentences.push(sentence);
    }
  }
  return sentences;
}

const WORD = /[\p{L}\p{N}]+(?:['’.,-][\p{L}\p{N}]+)*/gu;

export function wordsOf(text: string): string[] {
  return text.match(WORD) ?? [];
}
