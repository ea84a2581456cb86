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

export type MarkdownBlock =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'quote'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'table'; rows: string[][] };

/**
 * The blocks of lesson Markdown, for the exports that lay a lesson out themselves (HTML with
 * read-along spans, SCORM pages): headings, paragraphs, lists, quotes, fenced code and tables.
 * Inline markup stays in the text.
 */
export function markdownBlocks(markdown: string): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  const lines = markdown.split(/\r?\n/);
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === '') {
      i++;
      continue;
    }
    if (FENCE.test(line)) {
      const body: string[] = [];
      for (i++; i < lines.length && !FENCE.test(lines[i]!); i++) body.push(lines[i]!);
      i++;
      blocks.push({ kind: 'code', text: body.join('\n') });
      continue;
    }
    const heading = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: heading[1]!.length, text: heading[2]! });
      i++;
      continue;
    }
    if (/^\s*\|/.test(line)) {
      const rows: string[][] = [];
      for (; i < lines.length && /^\s*\|/.test(lines[i]!); i++) {
        const cells = lines[i]!.trim()
          .replace(/^\||\|$/g, '')
          .split('|')
          .map((c) => c.trim());
        if (!cells.every((c) => /^:?-+:?$/.test(c))) rows.push(cells);
      }
      blocks.push({ kind: 'table', rows });
      continue;
    }
    const item = /^\s*([-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?(.*)$/;
    if (item.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const items: string[] = [];
      for (; i < lines.length && lines[i]!.trim() !== ''; i++) {
        const match = item.exec(lines[i]!);
        if (match) items.push(match[2]!);
        else if (items.length) items[items.length - 1] += ` ${lines[i]!.trim()}`;
      }
      blocks.push({ kind: 'list', ordered, items });
      continue;
    }
    const quote = /^\s*>/.test(line);
    const text: string[] = [];
    for (; i < lines.length && lines[i]!.trim() !== '' && !FENCE.test(lines[i]!); i++) {
      if (text.length && (/^\s{0,3}#/.test(lines[i]!) || item.test(lines[i]!))) break;
      text.push(lines[i]!.replace(/^\s*>\s?/, '').trim());
    }
    blocks.push({ kind: quote ? 'quote' : 'paragraph', text: text.join(' ') });
  }
  return blocks;
}

/**
 * The sentences a listener hears in a piece of lesson Markdown, in order, each still with its
 * inline markup: the audio speaks them (markup stripped) and the HTML export wraps each in a
 * numbered span, so the two always agree.
 */
export function spokenSentencesOf(markdown: string): string[] {
  return markdownBlocks(markdown).flatMap((block) => {
    switch (block.kind) {
      case 'heading':
        return [block.text];
      case 'paragraph':
      case 'quote':
        return splitSentences(block.text);
      case 'list':
        return block.items.flatMap((item) => splitSentences(item));
      case 'code':
      case 'table':
        return [];
    }
  });
}
