/**
 * Offline simplification of lesson Markdown towards a reading grade: plain words for the
 * phrases retext-simplify knows (never inside a protected key term), then long sentences split
 * at clause boundaries, shorter and shorter until the measured grade reaches the target or no
 * split is left. Nothing is summarised away, so the facts of the source stay (the fidelity gate
 * checks that in stage 4).
 */
import { retext } from 'retext';
import retextEnglish from 'retext-english';
import retextSimplify from 'retext-simplify';
import { measureReadability } from './readability';
import { splitSentences, wordsOf } from '../text';

export interface SimplifyOptions {
  targetGrade: number;
  /** Sentences never end up longer than this many words when a split point allows. */
  maxSentenceWords?: number;
  /** Words and phrases that are kept as written (the lesson's key terms). */
  protectedTerms?: readonly string[];
}

export interface SimplifyResult {
  markdown: string;
  /** "utilize → use", one per replacement made. */
  replacements: string[];
  sentencesSplit: number;
}

const simplifier = retext().use(retextEnglish).use(retextSimplify);

/** Replacements that would change the meaning of a lesson sentence rather than its wording. */
const UNSAFE_SUGGESTIONS = new Set(['remove']);

/** Plain words for a stretch of prose (one Markdown line without its block marker). */
export function plainWords(
  text: string,
  protectedTerms: readonly string[] = [],
): { text: string; replacements: string[] } {
  const file = simplifier.processSync(text);
  const spans = protectedSpans(text, protectedTerms);
  const edits = file.messages
    .map((message) => ({
      start: message.place && 'start' in message.place ? message.place.start.offset : undefined,
      end: message.place && 'end' in message.place ? message.place.end.offset : undefined,
      suggestion: (message.expected ?? []).find((s) => !UNSAFE_SUGGESTIONS.has(s)),
    }))
    .filter(
      (e): e is { start: number; end: number; suggestion: string } =>
        e.start !== undefined && e.end !== undefined && typeof e.suggestion === 'string',
    )
    .filter((e) => !spans.some(([s, t]) => e.start < t && s < e.end))
    .sort((a, b) => b.start - a.start);
  let result = text;
  const replacements: string[] = [];
  let lastStart = Infinity;
  for (const edit of edits) {
    if (edit.end > lastStart) continue;
    const actual = result.slice(edit.start, edit.end);
    const replacement = matchCase(actual, edit.suggestion);
    result = result.slice(0, edit.start) + replacement + result.slice(edit.end);
    replacements.unshift(`${actual} → ${replacement}`);
    lastStart = edit.start;
  }
  return { text: result, replacements };
}

function protectedSpans(text: string, terms: readonly string[]): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const lower = text.toLowerCase();
  for (const term of terms) {
    const needle = term.toLowerCase().trim();
    if (!needle) continue;
    for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + 1)) {
      spans.push([at, at + needle.length]);
    }
  }
  return spans;
}

function matchCase(actual: string, suggestion: string): string {
  const first = actual.charAt(0);
  return first === first.toUpperCase() && first !== first.toLowerCase()
    ? suggestion.charAt(0).toUpperCase() + suggestion.slice(1)
    : suggestion;
}

/** Clause boundaries a long sentence may be split at, most natural first. */
const SPLIT_POINTS: Array<{ pattern: RegExp; keep: string }> = [
  { pattern: /;\s+/g, keep: '' },
  { pattern: /,\s+(?=but\s)/gi, keep: '' },
  { pattern: /,\s+(?=so\s)/gi, keep: '' },
  { pattern: /,\s+and\s+(?=\p{L})/giu, keep: '' },
  { pattern: /\s+[–—]\s+/g, keep: '' },
  { pattern: /,\s+(?=because\s)/gi, keep: 'This is ' },
];

const MIN_PART_WORDS = 4;

/** One sentence as several, split at the boundary nearest its middle, until each fits. */
export function splitLongSentence(sentence: string, maxWords: number): string[] {
  if (wordsOf(sentence).length <= maxWords) return [sentence];
  for (const { pattern, keep } of SPLIT_POINTS) {
    const candidates = [...sentence.matchAll(pattern)]
      .map((m) => ({ at: m.index, length: m[0].length }))
      .filter(
        (c) =>
          wordsOf(sentence.slice(0, c.at)).length >= MIN_PART_WORDS &&
          wordsOf(sentence.slice(c.at + c.length)).length >= MIN_PART_WORDS,
      );
    if (candidates.length === 0) continue;
    const middle = sentence.length / 2;
    const best = candidates.reduce((a, b) =>
      Math.abs(a.at - middle) <= Math.abs(b.at - middle) ? a : b,
    );
    const head = sentence.slice(0, best.at).replace(/[,;:\s]+$/, '') + '.';
    const rest = keep + sentence.slice(best.at + best.length);
    const tail = rest.charAt(0).toUpperCase() + rest.slice(1);
    return [...splitLongSentence(head, maxWords), ...splitLongSentence(tail, maxWords)];
  }
  return [sentence];
}

const FENCE = /^\s*(```|~~~)/;
const BLOCK_MARKER = /^(\s{0,3}#{1,6}\s+|\s*>\s?|\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?)/;

/** Applies `edit` to the prose of each Markdown line, leaving code, tables and markers alone. */
function mapProseLines(markdown: string, edit: (prose: string, heading: boolean) => string) {
  let inFence = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (FENCE.test(line)) {
        inFence = !inFence;
        return line;
      }
      if (inFence || line.trim() === '' || /^\s*\|/.test(line) || /^\s{4,}/.test(line)) {
        return line;
      }
      const marker = BLOCK_MARKER.exec(line)?.[0] ?? '';
      return marker + edit(line.slice(marker.length), /^\s{0,3}#/.test(marker));
    })
    .join('\n');
}

function splitLine(prose: string, maxWords: number): { text: string; splits: number } {
  const sentences = splitSentences(prose);
  let splits = 0;
  const parts = sentences.flatMap((sentence) => {
    const split = splitLongSentence(sentence, maxWords);
    splits += split.length - 1;
    return split;
  });
  return { text: splits > 0 ? parts.join(' ') : prose, splits };
}

const LONGEST = 30;
const SHORTEST = 8;

export function simplifyMarkdown(markdown: string, options: SimplifyOptions): SimplifyResult {
  const replacements: string[] = [];
  const worded = mapProseLines(markdown, (prose) => {
    const result = plainWords(prose, options.protectedTerms);
    replacements.push(...result.replacements);
    return result.text;
  });
  const cap = options.maxSentenceWords ?? LONGEST;
  let best = { markdown: worded, splits: 0 };
  if (measureReadability(worded).grade <= options.targetGrade && !options.maxSentenceWords) {
    return { markdown: worded, replacements, sentencesSplit: 0 };
  }
  for (let maxWords = cap; maxWords >= SHORTEST; maxWords -= 2) {
    let splits = 0;
    const split = mapProseLines(worded, (prose, heading) => {
      if (heading) return prose;
      const result = splitLine(prose, maxWords);
      splits += result.splits;
      return result.text;
    });
    best = { markdown: split, splits };
    if (measureReadability(split).grade <= options.targetGrade) break;
  }
  return { markdown: best.markdown, replacements, sentencesSplit: best.splits };
}
