import model from 'wink-eng-lite-web-model';

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
  // NFKC turns the micro sign into the Greek letter, so both spellings of µm meet here.
  μ: 'u',
};

/** Typographic symbols folded to ASCII (× to *, − to -, subscripts to digits), case kept. */
export function foldSymbols(text: string): string {
  let folded = '';
  // A power of ten keeps its exponent apart: "10⁴" is 10^4, not the number 104.
  const powers = text.replace(/10([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)/g, '10^$1');
  for (const ch of powers.normalize('NFKC')) folded += SUBSCRIPTS[ch] ?? ch;
  return folded;
}

/** Lower case, accents removed, typographic symbols folded to ASCII. */
export function foldText(text: string): string {
  return foldSymbols(text)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/**
 * A light suffix-stripping stem for the forms the lemmatiser leaves ("warming", "moistens"). The
 * evaluator compares both sides through it, so consistency matters more than linguistics.
 */
export function stem(word: string): string {
  if (word.length <= 4 || /\d/.test(word)) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(word)) return word;
  if (word.endsWith('ing') && word.length >= 7) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length >= 6) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

// WORKAROUND(wink-model-addons): the model's Porter2 stemmer is declared `unknown`; it is a
// plain (word) => stem function (dist/porter-stemmer.js), the one `its.stem` calls.
const porterStem = model.addons.stem as (word: string) => string;

/**
 * The root a word shares with its derived forms ("collide" and "collision" → "collid"/"collis"
 * do not, but "denature" and "denaturation", "irreversible" and "irreversibly", "diffuse" and
 * "diffusion" do): the Porter2 stem of its lemma, so a learner's noun meets the point's verb.
 */
export function wordRoot(lemma: string): string {
  if (lemma.length <= 4 || /\d/.test(lemma)) return stem(lemma);
  return porterStem(lemma);
}

/** Prefixes that turn a word into its opposite ("reversible" → "irreversible"). */
export const NEGATING_PREFIXES = ['non', 'un', 'in', 'im', 'ir', 'il', 'dis'];
