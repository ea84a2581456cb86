/**
 * What a learner's message asks for, before anything judges it as an answer: help ("I'm
 * stuck", "I don't know", …), the basics ("go back to the basics"), or a yes or no to the
 * coach's offer. Typing is forgiving: words within one or two letters of the words the phrases
 * use are read as those words ("im stuk", "i dont knwo", "cna you hlep").
 *
 * An answer that mentions being stuck is still an answer: a message that also states a value
 * ("stuck with units? no, it's 5 m/s", "I don't know, maybe 8") is judged, not treated as help.
 */
import { OFFER_BUTTONS } from '../../common/coach-chat';

export type Intent = 'help' | 'basics' | 'accept' | 'decline' | 'other';

/** The words the phrases are made of, which misspellings are corrected to. */
const VOCABULARY = [
  'help',
  'stuck',
  'know',
  'understand',
  'basics',
  'basic',
  'hint',
  'explain',
  'confused',
  'lost',
  'idea',
  'clue',
  'sure',
  'need',
  'more',
  'please',
  'can',
  'could',
  'you',
  'give',
  'back',
  'again',
  'start',
  'over',
  'fundamentals',
  'refresher',
  'assist',
];

function editDistance(a: string, b: string): number {
  // Damerau (adjacent transpositions count once): "knwo" is one slip from "know".
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      }
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** A word corrected to the vocabulary when it is a near miss; short words must be exact. */
function correct(word: string): string {
  if (word.length < 4 || VOCABULARY.includes(word)) return word;
  const allowed = word.length >= 7 ? 2 : 1;
  let best = word;
  let bestDistance = allowed + 1;
  for (const known of VOCABULARY) {
    if (Math.abs(known.length - word.length) > allowed) continue;
    const distance = editDistance(word, known);
    if (distance < bestDistance) {
      best = known;
      bestDistance = distance;
    }
  }
  return best;
}

/** Short forms and common slips that edit distance cannot reach (too short, or a contraction). */
const SHORT_FORMS: Record<string, string> = {
  im: 'i am',
  "i'm": 'i am',
  dont: 'do not',
  "don't": 'do not',
  dunno: 'do not know',
  donno: 'do not know',
  idk: 'i do not know',
  cant: 'can not',
  "can't": 'can not',
  cannot: 'can not',
  cna: 'can',
  cn: 'can',
  u: 'you',
  ya: 'you',
  yu: 'you',
  pls: 'please',
  plz: 'please',
  hlp: 'help',
  hepl: 'help',
  hlep: 'help',
  halp: 'help',
  hep: 'help',
  "i've": 'i have',
  ive: 'i have',
  "haven't": 'have not',
  havent: 'have not',
  "what's": 'what is',
};

/** Lower-case words with apostrophes unified, short forms expanded and slips corrected. */
export function normalizeWords(message: string): string {
  const words = message
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`]/g, "'")
    .replace(/[^a-z0-9'\s]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  return words
    .map((word) => SHORT_FORMS[word] ?? correct(word))
    .join(' ')
    .replace(/'/g, '');
}

const HELP_PATTERNS: readonly RegExp[] = [
  /\b(need|want|could use|like) (some |more |a |another |a bit of |a little |a little more |extra )?(help|assist|hint|clue)/,
  /\b(can|could|would|will) you (please )?(help|assist|explain|give me (a |another |some )?(hint|clue))/,
  /\b(give|show) me (a |another |some )?(hint|clue)/,
  /^(please )?(help|hint|assist)( me)?( please)?$/,
  /^(a )?(hint|clue) please$/,
  /\bhelp me( out)?( please)?( with (this|it|that))?$/,
  /(^|\bi )do not (really )?(know|understand|get it|get this|get that)\b/,
  /\bi am (so |really |completely |totally )?(stuck|lost|confused)\b/,
  /\bi (got|get) (stuck|lost|confused)\b/,
  /^(so |really )?(stuck|lost|confused)( here| again)?$/,
  /\b(no|not a) (idea|clue)\b/,
  /\bi have no (idea|clue)\b/,
  /\bnot sure( how| what| where)?\b/,
  /\bwhat do i do\b/,
  /\bi can not (do|solve|answer|figure)/,
  /\bi give up\b/,
];

const BASICS_PATTERNS: readonly RegExp[] = [
  /\b(go|get|going|take me) back to (the )?(basic|basics|fundamentals|start)\b/,
  /\b(start|begin) (over|again) (from|with) (the )?(basic|basics|fundamentals)\b/,
  /\b(need|want) (a |the )?(refresher|basics|basic|fundamentals)\b/,
  /\bback to (the )?(basic|basics)\b/,
];

/**
 * A stated answer beside a help phrase: a number, or words that introduce a claim. Such a
 * message is judged as the answer it contains.
 */
const STATES_AN_ANSWER = /\d|\b(it is|its|answer is|the answer|maybe|i think|is it|probably)\b/;

const ACCEPT =
  /^(yes|yeah|yep|yup|sure|ok|okay|please|alright|all right|go ahead|lets do it|lets go|do it|absolutely|of course|y)( please| thanks| thank you| lets do that| sure)*$/;
const DECLINE =
  /^(no|nope|nah|not now|not yet|no thanks|no thank you|later|maybe later|skip|n)( thanks| thank you| not now| not yet| later)*$/;

function buttonIntent(message: string): 'accept' | 'decline' | undefined {
  const text = message.trim().toLowerCase();
  for (const labels of Object.values(OFFER_BUTTONS)) {
    if (text === labels.accept.toLowerCase()) return 'accept';
    if (text === labels.decline.toLowerCase()) return 'decline';
  }
  return undefined;
}

/**
 * Reads the message. `offerOpen`: whether the coach has just offered something, so that a
 * bare "yes" or "no" means accepting or declining it (otherwise it is an answer).
 */
export function detectIntent(message: string, offerOpen: boolean): Intent {
  const button = buttonIntent(message);
  if (button) return button;
  const words = normalizeWords(message);
  if (offerOpen) {
    if (ACCEPT.test(words)) return 'accept';
    if (DECLINE.test(words)) return 'decline';
  }
  if (BASICS_PATTERNS.some((pattern) => pattern.test(words))) return 'basics';
  if (HELP_PATTERNS.some((pattern) => pattern.test(words)) && !STATES_AN_ANSWER.test(words)) {
    return 'help';
  }
  return 'other';
}
