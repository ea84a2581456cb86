/**
 * Stage 4's language review: inclusive language (retext-equality), profanity
 * (retext-profanities), passive voice (retext-passive), wordiness (retext-simplify) and hard
 * sentences (retext-readability), each finding placed by line and column in the section's
 * own Markdown and given a suggested fix.
 */
import { retext } from 'retext';
import retextEnglish from 'retext-english';
import retextEquality from 'retext-equality';
import retextPassive from 'retext-passive';
import retextProfanities from 'retext-profanities';
import retextReadability from 'retext-readability';
import retextSimplify from 'retext-simplify';
import type { ReviewCheck, ReviewFinding } from '../lesson';

const CHECKS = new Set<string>([
  'retext-equality',
  'retext-profanities',
  'retext-passive',
  'retext-simplify',
  'retext-readability',
]);

/**
 * The reader's age retext-readability grades for: a US grade is read at about six years older
 * (grade 8 ≈ age 14).
 */
export function readerAge(grade: number): number {
  return Math.max(8, Math.min(22, Math.round(grade) + 6));
}

function reviewer(targetGrade: number) {
  return (
    retext()
      .use(retextEnglish)
      .use(retextEquality)
      // "Maybe" and "likely" profane words: a lesson should not need either.
      .use(retextProfanities, { sureness: 1 })
      .use(retextPassive)
      .use(retextSimplify)
      .use(retextReadability, { age: readerAge(targetGrade) })
  );
}

/**
 * The Markdown with its markup blanked out (same length, same lines), so the checks read prose
 * and their offsets stay the Markdown's own.
 */
export function maskMarkdown(markdown: string): string {
  let inFence = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        inFence = !inFence;
        return ' '.repeat(line.length);
      }
      if (inFence || /^\s*\|/.test(line)) return ' '.repeat(line.length);
      return line
        .replace(/^(\s{0,3}#{1,6}\s+|\s*>\s?|\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?)/, (m) =>
          ' '.repeat(m.length),
        )
        .replace(
          /(!?\[)([^\]]*)(\]\([^)]*\))/g,
          (_m, open: string, text: string, close: string) => {
            return ' '.repeat(open.length) + text + ' '.repeat(close.length);
          },
        )
        .replace(/`[^`]*`/g, (m) => ' '.repeat(m.length))
        .replace(/\*\*|__|(?<![\w*])[*_](?=\S)|(?<=\S)[*_](?![\w*])/g, (m) => ' '.repeat(m.length));
    })
    .join('\n');
}

type CheckMessage = ReturnType<ReturnType<typeof reviewer>['processSync']>['messages'][number];

function quoted(words: readonly string[]): string {
  return words.map((w) => `“${w}”`).join(' or ');
}

function suggestionFor(
  check: ReviewCheck,
  message: CheckMessage,
): {
  suggestion: string;
  replacement: string | null;
} {
  const expected = (message.expected ?? []).filter((e) => e && e !== 'remove');
  switch (check) {
    case 'retext-equality':
      return expected.length
        ? { suggestion: `Use ${quoted(expected.slice(0, 3))} instead.`, replacement: expected[0]! }
        : { suggestion: 'Reword to include every reader.', replacement: null };
    case 'retext-simplify':
      if (expected.length) {
        return {
          suggestion: `Use ${quoted(expected.slice(0, 3))} instead.`,
          replacement: expected[0]!,
        };
      }
      return {
        suggestion: 'Leave it out: the sentence reads the same without it.',
        replacement: '',
      };
    case 'retext-profanities':
      return { suggestion: 'Remove it or choose a neutral word.', replacement: null };
    case 'retext-passive':
      return {
        suggestion: 'Say who does it, in the active voice ("The plant releases oxygen").',
        replacement: null,
      };
    case 'retext-readability':
      return {
        suggestion: 'Split the sentence in two or use shorter, more common words.',
        replacement: null,
      };
  }
}

/** Findings for one piece of Markdown; `sectionId` null is the lesson's title. */
export function reviewMarkdown(
  markdown: string,
  sectionId: string | null,
  targetGrade: number,
): ReviewFinding[] {
  const masked = maskMarkdown(markdown);
  const file = reviewer(targetGrade).processSync(masked);
  const findings: ReviewFinding[] = [];
  for (const message of file.messages) {
    const check = message.source;
    if (!check || !CHECKS.has(check)) continue;
    const place = message.place && 'start' in message.place ? message.place : null;
    const start = place?.start ?? { line: message.line ?? 1, column: message.column ?? 1 };
    const excerpt =
      place?.start.offset !== undefined && place.end.offset !== undefined
        ? markdown.slice(place.start.offset, place.end.offset)
        : (message.actual ?? '');
    findings.push({
      check: check as ReviewCheck,
      message: message.reason,
      place: { sectionId, line: start.line, column: start.column },
      excerpt,
      ...suggestionFor(check as ReviewCheck, message),
    });
  }
  return findings.sort((a, b) => a.place.line - b.place.line || a.place.column - b.place.column);
}
