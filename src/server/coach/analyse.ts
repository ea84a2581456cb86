/**
 * The offline evaluator's reading of a text: content words as lemmas (wink-nlp's English lite
 * model, decision 0200) folded through the synonym groups, each with its negation, and the quantities with their units in one canonical scale.
 */
import winkNLP, { type ItemToken, type ItsFunction } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { PHRASES, SYNONYM_OF, WORDNET_OF } from './synonyms';
import { foldText, stem, wordRoot } from './text';

/** How many content words after "not", "no", "lack"… a negation covers. */
const NEGATION_REACH = 3;

export interface Term {
  /** The lemma after synonym folding. */
  word: string;
  /** The word as written (folded), for spelling repair: a misspelling lemmatises badly. */
  surface: string;
  negated: boolean;
  /** The first content word after a negation: what the negation denies in the first place. */
  negationHead: boolean;
  /** Position among the text's terms, for neighbourhoods. */
  position: number;
  /** Which clause of the text the word is in (punctuation and "but", "so"… start a new one). */
  clause: number;
  /** Whether "or" joins it to the content word before it ("rises or falls"). */
  afterOr: boolean;
}

export interface Quantity {
  /** In the unit's base scale (mL as L, % as a fraction, µm as m). */
  value: number;
  /** `length`, `volume`, a currency, a counted noun…; '' for a bare number. */
  dimension: string;
  negated: boolean;
  /** Absolute tolerance stated with the number (`± 1`), in the base scale. */
  tolerance?: number;
  /**
   * For a rate or a content (`182 mL/L`, `5040 mL/min`), the amount before the "per" in its own
   * base scale (0.182 L): a learner may leave the "per litre" implied as they may leave a unit.
   */
  perUnit?: { value: number; dimension: string; tolerance?: number };
  /**
   * Whether the text since the previous quantity draws a conclusion ("so", "=", "therefore"…):
   * the figure the answer ends on, not one of its workings.
   */
  concludes: boolean;
  /**
   * The word after the counted one, when the first is not a unit: "50 positive charges" counts
   * charges as much as "50 charges" does.
   */
  countedAfter?: string;
}

export interface Analysis {
  terms: Term[];
  quantities: Quantity[];
}

// Loaded once per process (about 0.3 s); `pos` drives content-word selection, `negation` sets
// each token's negation flag up to the end of its clause.
let nlp: ReturnType<typeof winkNLP> | undefined;
function reader() {
  nlp ??= winkNLP(model, ['sbd', 'pos']);
  return nlp;
}

/** Words that deny what follows them; "lack" and "without" as much as "not". */
const NEGATORS = new Set([
  'not',
  "n't",
  'no',
  'never',
  'none',
  'neither',
  'nor',
  'cannot',
  'without',
  'lack',
  'lacking',
  'absent',
  'nothing',
  'nobody',
  // "non-polar", "non-living": the hyphen is read as a space.
  'non',
]);

/** Words that start a new clause, where a negation stops. */
const CLAUSE_WORDS = new Set([
  'but',
  'so',
  'because',
  'while',
  'whereas',
  'although',
  'yet',
  'which',
  'that',
]);

// WORKAROUND(wink-nlp-types): its.lemma is declared with a third `addons` parameter that
// ItsFunction does not allow, though token.out(its.lemma) is the documented call.
const lemmaOf = (): ItsFunction<string> => reader().its.lemma as unknown as ItsFunction<string>;

const CONTENT_POS = new Set(['NOUN', 'PROPN', 'VERB', 'ADJ', 'ADV', 'NUM', 'X']);

/** Lemmas that carry no content even when tagged as one. */
const EMPTY_LEMMAS = new Set([
  'be',
  'have',
  'do',
  'get',
  'so',
  'also',
  'then',
  'just',
  'very',
  'really',
  'thing',
  'way',
  'because',
  'therefore',
  'think',
  'mean',
  'basically',
  'about',
  'around',
  'roughly',
  'approximately',
  'like',
  'etc',
  'answer',
  'i',
  'it',
  'not',
  'never',
  'no',
  "n't",
]);

interface Unit {
  dimension: string;
  factor: number;
}

const UNITS: Record<string, Unit> = {
  km: { dimension: 'length', factor: 1000 },
  m: { dimension: 'length', factor: 1 },
  metre: { dimension: 'length', factor: 1 },
  meter: { dimension: 'length', factor: 1 },
  cm: { dimension: 'length', factor: 0.01 },
  mm: { dimension: 'length', factor: 0.001 },
  um: { dimension: 'length', factor: 1e-6 },
  micrometre: { dimension: 'length', factor: 1e-6 },
  micrometer: { dimension: 'length', factor: 1e-6 },
  micron: { dimension: 'length', factor: 1e-6 },
  nm: { dimension: 'length', factor: 1e-9 },
  l: { dimension: 'volume', factor: 1 },
  litre: { dimension: 'volume', factor: 1 },
  liter: { dimension: 'volume', factor: 1 },
  dl: { dimension: 'volume', factor: 0.1 },
  ml: { dimension: 'volume', factor: 0.001 },
  millilitre: { dimension: 'volume', factor: 0.001 },
  milliliter: { dimension: 'volume', factor: 0.001 },
  'ml/min': { dimension: 'flow', factor: 0.001 },
  'l/min': { dimension: 'flow', factor: 1 },
  'ml/l': { dimension: 'content', factor: 1 },
  mmhg: { dimension: 'pressure', factor: 1 },
  kpa: { dimension: 'pressure', factor: 7.50062 },
  pa: { dimension: 'pressure', factor: 0.00750062 },
  hpa: { dimension: 'pressure', factor: 0.750062 },
  atm: { dimension: 'pressure', factor: 760 },
  ul: { dimension: 'volume', factor: 1e-6 },
  kl: { dimension: 'volume', factor: 1000 },
  msq: { dimension: 'area', factor: 1 },
  cmsq: { dimension: 'area', factor: 1e-4 },
  mmsq: { dimension: 'area', factor: 1e-6 },
  umsq: { dimension: 'area', factor: 1e-12 },
  kmsq: { dimension: 'area', factor: 1e6 },
  mol: { dimension: 'amount', factor: 1 },
  mmol: { dimension: 'amount', factor: 0.001 },
  'mol/l': { dimension: 'concentration', factor: 1 },
  'mmol/l': { dimension: 'concentration', factor: 0.001 },
  'm/s': { dimension: 'speed', factor: 1 },
  'cm/s': { dimension: 'speed', factor: 0.01 },
  'km/h': { dimension: 'speed', factor: 1 / 3.6 },
  kph: { dimension: 'speed', factor: 1 / 3.6 },
  mph: { dimension: 'speed', factor: 0.44704 },
  j: { dimension: 'energy', factor: 1 },
  kj: { dimension: 'energy', factor: 1000 },
  cal: { dimension: 'energy', factor: 4.184 },
  kcal: { dimension: 'energy', factor: 4184 },
  dollar: { dimension: '$', factor: 1 },
  usd: { dimension: '$', factor: 1 },
  '%': { dimension: '', factor: 0.01 },
  percent: { dimension: '', factor: 0.01 },
  s: { dimension: 'time', factor: 1 },
  sec: { dimension: 'time', factor: 1 },
  second: { dimension: 'time', factor: 1 },
  min: { dimension: 'time', factor: 60 },
  minute: { dimension: 'time', factor: 60 },
  h: { dimension: 'time', factor: 3600 },
  hr: { dimension: 'time', factor: 3600 },
  hrs: { dimension: 'time', factor: 3600 },
  hour: { dimension: 'time', factor: 3600 },
  ms: { dimension: 'time', factor: 0.001 },
  millisecond: { dimension: 'time', factor: 0.001 },
  day: { dimension: 'time', factor: 86400 },
  week: { dimension: 'time', factor: 604800 },
  g: { dimension: 'mass', factor: 1 },
  kg: { dimension: 'mass', factor: 1000 },
  mg: { dimension: 'mass', factor: 0.001 },
  c: { dimension: 'temperature', factor: 1 },
  celsius: { dimension: 'temperature', factor: 1 },
  degree: { dimension: 'temperature', factor: 1 },
  pound: { dimension: 'gbp', factor: 1 },
  gbp: { dimension: 'gbp', factor: 1 },
};

const SCALES: Record<string, number> = {
  thousand: 1e3,
  k: 1e3,
  million: 1e6,
  m: 1e6,
  billion: 1e9,
  bn: 1e9,
};

const singular = (word: string) =>
  word.length > 3 && word.endsWith('s') ? word.slice(0, -1) : word;

/**
 * Numbers with what follows them: `400 mL`, `0.5 (50%)`, `£130 million`, `3750 mL/min`,
 * `79.8 ± 1 mmHg`, `-7`. A word after a number that is not a unit names what is counted
 * (`40 cakes`), which is its dimension, so "40 minutes" does not match "40 cakes".
 */
const QUANTITY =
  /(£|\$|€)?\s?(-?\d+(?:\.\d+)?(?:e-?\d+)?)(?:\s?(?:±|\+\/-|\+-)\s?(\d+(?:\.\d+)?))?(?:\s?(thousand|million|billion|bn)\b)?(?:\s?(%|[a-z]+(?:\/[a-z]+)?))?/g;

const COMPOUND_DURATION = /(\d+)\s?(?:hours?|hrs?|h)\s*(?:and\s*)?(\d+)\s?(?:minutes?|mins?)\b/g;

const CONCLUSION = /\b(?:so|therefore|thus|hence|giving|gives|total|makes)\b|=/;

function readQuantities(folded: string, negatedAt: (offset: number) => boolean): Quantity[] {
  const quantities: Quantity[] = [];
  // Thousands separators and decimal commas as people type them.
  const text = folded
    .replace(/(\d),(\d{3})\b/g, '$1$2')
    .replace(/(\d),(\d)/g, '$1.$2')
    // A written fraction is one number ("-1/2", not -1 and 2), as close to its length as may be.
    .replace(
      /(?<![\d.\w)])(-?\d+)\/(\d+)(?!\d|\.\d|[\w(])/g,
      (whole, top: string, bottom: string) =>
        Number(bottom) === 0
          ? whole
          : String(Number((Number(top) / Number(bottom)).toPrecision(6))).padEnd(whole.length),
    )
    // "1 hour 20 minutes" is one duration; padded to its length so offsets stay in place.
    .replace(COMPOUND_DURATION, (whole, hours: string, minutes: string) =>
      `${Number(hours) * 60 + Number(minutes)} minutes`.padEnd(whole.length),
    );
  let previousEnd = 0;
  for (const match of text.matchAll(QUANTITY)) {
    const [, currency, number, plusMinus, scaleWord, after] = match;
    if (number === undefined) continue;
    // A number inside a word or formula symbol (co2, h2o, x2) is part of a name.
    const before = text[match.index + match[0].indexOf(number) - 1];
    if (before && /[a-z]/.test(before) && !currency) continue;
    let value = Number(number);
    let dimension = '';
    let factor = 1;
    const scale = scaleWord ? SCALES[scaleWord] : undefined;
    if (scale) value *= scale;
    if (currency) dimension = currency === '£' ? 'gbp' : currency;
    if (after) {
      const unitWord = after === '%' ? '%' : singular(after);
      const unit = UNITS[unitWord] ?? UNITS[after];
      if (!scale && SCALES[after] && currency) value *= SCALES[after]!;
      else if (unit) {
        dimension = unit.dimension || dimension;
        factor = unit.factor;
      } else if (
        !currency &&
        !/^(and|or|to|the|of|a|so|is|in|on|by|for|x|y|with|from|at)$/.test(after)
      ) {
        dimension = SYNONYM_OF.get(unitWord) ?? unitWord;
      }
    }
    const numerator = after?.includes('/') ? UNITS[after.split('/')[0]!] : undefined;
    const perUnit =
      numerator && UNITS[after!] && numerator.dimension
        ? {
            value: value * numerator.factor,
            dimension: numerator.dimension,
            ...(plusMinus !== undefined ? { tolerance: Number(plusMinus) * numerator.factor } : {}),
          }
        : undefined;
    const concludes = CONCLUSION.test(text.slice(previousEnd, match.index));
    previousEnd = match.index + match[0].length;
    const nextWord =
      dimension !== '' && !UNITS[after ?? ''] && !UNITS[singular(after ?? '')]
        ? /^\s([a-z]+)/.exec(text.slice(previousEnd))?.[1]
        : undefined;
    const countedAfter = nextWord
      ? (SYNONYM_OF.get(singular(nextWord)) ?? singular(nextWord))
      : undefined;
    quantities.push({
      value: value * factor,
      dimension,
      negated: negatedAt(match.index),
      concludes,
      ...(plusMinus !== undefined ? { tolerance: Number(plusMinus) * factor } : {}),
      ...(perUnit ? { perUnit } : {}),
      ...(countedAfter ? { countedAfter } : {}),
    });
  }
  return quantities;
}

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  hundred: 100,
};

const celsius = (value: number) => `${Number(value.toPrecision(4))} c`;

/**
 * Writes quantities the one way `readQuantities` reads them: scientific notation as `1.5e4`
 * ("1.5 × 10^4", "1.5x10⁴"), degrees Celsius as `c` and Fahrenheit or kelvin converted to it,
 * `mm Hg` as `mmhg`, cm³ and dm³ as mL and L, squared units as `…sq`, and a number word before a
 * unit as digits ("three litres"). The same rewriting on both sides, so `1500 mL` meets
 * `1.5 dm³` and `98.6 °F` meets `37 °C`.
 */
function normaliseQuantities(folded: string): string {
  return (
    folded
      .replace(
        /(\d+(?:\.\d+)?)\s?[x*]\s?10\s?(?:\^|\*\*)\s?(-?\d+)\b/g,
        (_whole, mantissa: string, exponent: string) => `${mantissa}e${exponent}`,
      )
      .replace(/(?<![\w.])10\s?\^\s?(-?\d+)\b/g, '1e$1')
      .replace(
        /(-?\d+(?:\.\d+)?)\s?(?:°\s?f|degrees? f(?:ahrenheit)?|fahrenheit)\b/g,
        (_whole, value: string) => celsius(((Number(value) - 32) * 5) / 9),
      )
      .replace(/(-?\d+(?:\.\d+)?)\s?(?:kelvin|° ?k)\b/g, (_whole, value: string) =>
        celsius(Number(value) - 273.15),
      )
      .replace(/(\d)\s?(?:°\s?c|degrees? (?:c|celsius|centigrade))\b/g, '$1 c')
      .replace(/(\d)\s?°/g, '$1 degree')
      .replace(/\bmm\s?hg\b/g, 'mmhg')
      .replace(/\b(?:cm\^?3|cc)\b/g, 'ml')
      .replace(/\bdm\^?3\b/g, 'l')
      .replace(/\bm\^?3\b/g, 'kl')
      .replace(/\b(km|cm|mm|um|m)\^?2\b/g, '$1sq')
      .replace(/\b(?:sq(?:uare)?\.?\s)(km|cm|mm|um|m)\b/g, '$1sq')
      .replace(/\b([a-z]+)\s(?=([a-z]+))/g, (whole, word: string, next: string) => {
        const value = NUMBER_WORDS[word];
        const after = next.length > 3 && next.endsWith('s') ? next.slice(0, -1) : next;
        return value !== undefined && (UNITS[after] || UNITS[next] || SCALES[next])
          ? `${value} `
          : whole;
      })
      // A number word said as the answer's figure: at the end of a clause ("x equals eight"),
      // before a variable ("three x") or "and a half" ("fourteen and a half months").
      .replace(
        /\b([a-z]+)\b(?=\s*(?:[.,;!?)]|$)|\s(?:[xyzn]\b|and a half\b))/g,
        (whole, word: string) =>
          NUMBER_WORDS[word] !== undefined ? String(NUMBER_WORDS[word]) : whole,
      )
      .replace(/(\d+) and a half\b/g, '$1.5')
      // "8 over 5" is the fraction 8/5, "x equals 8" is x = 8.
      .replace(/(\d)\s+over\s+(\d)/g, '$1/$2')
      .replace(/\bequals\b/g, '=')
      // A range written with a hyphen ("7.35-7.45") is two figures, not a figure and a negative one.
      .replace(
        /(?<![\d.])(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)(?![\d.])/g,
        (whole, low: string, high: string) =>
          Number(high) > Number(low) ? `${low} to ${high}` : whole,
      )
  );
}

/** Folds the text and rewrites the synonym phrases, before tokenising. */
export function prepare(text: string): string {
  let folded = normaliseQuantities(foldText(text))
    // "No." is the answer no, not the abbreviation of "number" the tokeniser takes it for.
    .replace(/\b(yes|no)\.(?=\s|$)/g, '$1 .')
    // Words joined by a hyphen are read as one term ("cell-wall", "x-intercept").
    .replace(/([a-z])-([a-z])/g, '$1 $2');
  for (const [pattern, replacement] of PHRASES) folded = folded.replace(pattern, replacement);
  return folded;
}

/** Reads a text; pure, and safe on any string. */
export function analyse(text: string): Analysis {
  const prepared = prepare(text);
  const doc = reader().readDoc(prepared);
  const its = reader().its;
  const terms: Term[] = [];
  const negatedOffsets: Array<{ offset: number; negated: boolean }> = [];
  let offset = 0;
  // A unit or scale word after a number belongs to the quantity, not to the words.
  let afterNumber = false;
  // A negation reaches the next three words of its clause: "not cells" but not the rest of a
  // long sentence (wink's own flag runs to the next punctuation, too far for an answer).
  let negationLeft = 0;
  let negationReach = NEGATION_REACH;
  let clause = 0;
  // Set at "or", kept over the small words before the next content word ("or maybe the").
  let sawOr = false;
  // "not yet", "not so": a clause word right after a negator belongs to the negation.
  let afterNegator = false;
  doc.tokens().each((token: ItemToken) => {
    const value = token.out(its.value) as string;
    const found = prepared.indexOf(value, offset);
    if (found >= 0) offset = found + value.length;
    const pos = token.out(its.pos) as string;
    const type = token.out(its.type) as string;
    const lemma = (token.out(lemmaOf()) as string).toLowerCase();
    if (lemma === 'or') sawOr = true;
    const keepsNegation = afterNegator && CLAUSE_WORDS.has(lemma);
    afterNegator = false;
    if (keepsNegation) return;
    if (type === 'punctuation' || CLAUSE_WORDS.has(lemma)) {
      negationLeft = 0;
      clause += 1;
    }
    if (NEGATORS.has(lemma) || NEGATORS.has(value)) {
      // "Without surfactant the alveoli collapse": a preposition denies its own object.
      negationReach = lemma === 'without' ? 1 : NEGATION_REACH;
      negationLeft = negationReach;
      afterNegator = true;
      negatedOffsets.push({ offset: found, negated: true });
      return;
    }
    const negated = negationLeft > 0;
    const negationHead = negationLeft > 0 && negationLeft === negationReach;
    negatedOffsets.push({ offset: found, negated });
    const follows = afterNumber;
    afterNumber = type === 'number' || (follows && (type === 'symbol' || value === '/'));
    // Numbers are read with their units as quantities, below.
    if (type !== 'word') return;
    if (follows && (UNITS[lemma] || UNITS[value] || SCALES[value])) {
      afterNumber = true;
      return;
    }
    if (!CONTENT_POS.has(pos)) return;
    if (EMPTY_LEMMAS.has(lemma) || lemma.length < 1) return;
    // wink leaves some forms unlemmatised ("moistens", "warming"): the stem meets them.
    const stemmed = stem(lemma);
    const word =
      SYNONYM_OF.get(lemma) ??
      SYNONYM_OF.get(value) ??
      SYNONYM_OF.get(stemmed) ??
      SYNONYM_OF.get(wordRoot(lemma)) ??
      WORDNET_OF.get(lemma) ??
      WORDNET_OF.get(value) ??
      wordRoot(lemma);
    terms.push({
      word,
      surface: value,
      negated,
      negationHead,
      position: terms.length,
      clause,
      afterOr: sawOr,
    });
    sawOr = false;
    // "without using ATP": the preposition's object is the verb's.
    if (negationLeft > 0 && !(negationReach === 1 && pos === 'VERB')) negationLeft -= 1;
  });
  const negatedAt = (at: number) => {
    let negated = false;
    for (const entry of negatedOffsets) {
      if (entry.offset > at) break;
      if (entry.offset >= 0) negated = entry.negated;
    }
    return negated;
  };
  return { terms, quantities: readQuantities(prepared, negatedAt) };
}

/** Edit distance with transpositions, giving up once it exceeds `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i += 1) {
    rows.push(new Array<number>(b.length + 1).fill(0));
    rows[i]![0] = i;
  }
  for (let j = 0; j <= b.length; j += 1) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    let best = Number.POSITIVE_INFINITY;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      }
      rows[i]![j] = value;
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
  }
  return rows[a.length]![b.length]!;
}
