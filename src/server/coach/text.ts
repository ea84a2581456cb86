/**
 * Text normalisation for the offline evaluator: the same folding for the reference, the key
 * points and the learner's answer, so they are compared word for word.
 */

const SUBSCRIPTS: Record<string, string> = {
  '₀': '0',
  '₁': '1',
  '₂': '2',
  '₃': '3',
  '₄': '4',
  '₅': '5',
  '₆': '6',
  '₇': '7',
  '₈': '8',
  '₉': '9',
  '⁰': '0',
  '¹': '1',
  '²': '2',
  '³': '3',
  '⁺': '+',
  '⁻': '-',
  '½': ' 1/2 ',
  '−': '-',
  '–': '-',
  '—': ' - ',
  '’': "'",
  '‘': "'",
  '“': '"',
  '”': '"',
  '×': '*',
  '÷': '/',
  µ: 'u',
};

/** Lower case, accents removed, typographic symbols folded to ASCII. */
export function foldText(text: string): string {
  let folded = '';
  for (const ch of text.normalize('NFKC')) folded += SUBSCRIPTS[ch] ?? ch;
  return folded
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/**
 * Words that carry no content in a short answer. Negations are deliberately absent: "not" and
 * "never" change the meaning and are handled by the evaluator.
 */
export const STOPWORDS = new Set(
  `a an the and or but if then so of to in on at by for with from as into onto over under
  is are was were be been being am do does did doing have has had having it its it's this
  that these those there here which who whom whose what when where why how than too very can
  could would should will shall may might must also just only such each any all some both
  their they them his her he she we you your our my me i us one ones because since while
  about more most much many other same eg e.g ie i.e etc s`.split(/\s+/),
);

export const NEGATIONS = new Set([
  'not',
  'no',
  'never',
  'none',
  'neither',
  'nor',
  'cannot',
  "can't",
  "don't",
  "doesn't",
  "isn't",
  "aren't",
  "wasn't",
  "weren't",
  "won't",
  "didn't",
  'without',
  'nothing',
]);

/** Words (letters, digits, apostrophes inside words, decimal numbers) of folded text. */
export function words(text: string): string[] {
  return foldText(text).match(/\d+(?:\.\d+)?|[a-z]+(?:'[a-z]+)?/g) ?? [];
}

/**
 * A light suffix-stripping stem, so "filters", "filtering" and "filtered" meet. The evaluator
 * compares stems of both sides, so consistency matters more than linguistic accuracy.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /^\d/.test(word)) return word;
  let w = word;
  if (w.endsWith("'s")) w = w.slice(0, -2);
  const rules: Array<[RegExp, string]> = [
    [/ies$/, 'y'],
    [/(ss|us|is)$/, '$1'],
    [/([^s])s$/, '$1'],
  ];
  for (const [pattern, replacement] of rules) {
    if (pattern.test(w)) {
      w = w.replace(pattern, replacement);
      break;
    }
  }
  const suffixes = ['ational', 'ation', 'ness', 'ment', 'ing', 'edly', 'ed', 'ly', 'er', 'e'];
  for (const suffix of suffixes) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  return w;
}
