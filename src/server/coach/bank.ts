/**
 * The question bank as the coach reads it (public.questions, decision 0100), and the exact
 * judging of the answers that have one right value: a multiple-choice option, or a number with
 * a tolerance and a unit. Short-text answers go to the answer evaluator instead.
 */

export interface Choice {
  id: string;
  text: string;
}

export type AnswerKey =
  | { type: 'multiple_choice'; choices: Choice[]; answer: { choice: string } }
  | { type: 'numeric'; answer: { value: number; tolerance: number; unit: string } }
  | { type: 'short_text'; answer: { text: string } };

/** A prerequisite's basic question. */
export type BasicQuestion = AnswerKey & { prompt: string };

export interface Misconception {
  misconception: string;
  feedback: string;
  choice?: string;
}

export type BankQuestion = AnswerKey & {
  id: string;
  prompt: string;
  moduleTitle: string;
  keyPoints: string[];
  /** From least to most revealing. */
  hints: string[];
  workedExample: string;
  misconceptions: Misconception[];
  prerequisite: { concept: string; refresher: string; questions: BasicQuestion[] };
};

export type Verdict = 'correct' | 'partially_correct' | 'incorrect';

/** A judged answer. `unclear`: no option or number could be read, so nothing is counted. */
export interface Judgement {
  verdict: Verdict | 'unclear';
  missing: string[];
  feedback: string;
  /** The misconception a wrong option is tied to. */
  misconception?: Misconception;
}

/** The reference answer in words, for confirmations and walk-throughs. */
export function answerText(question: AnswerKey): string {
  switch (question.type) {
    case 'multiple_choice': {
      const right = question.choices.find((c) => c.id === question.answer.choice);
      return `${question.answer.choice}) ${right?.text ?? ''}`.trim();
    }
    case 'numeric': {
      const { value, unit } = question.answer;
      return unit ? `${value} ${unit}` : String(value);
    }
    case 'short_text':
      return question.answer.text;
  }
}

/** The prompt as the learner sees it, with the options listed for a multiple-choice question. */
export function promptText(question: AnswerKey & { prompt: string }): string {
  if (question.type !== 'multiple_choice') return question.prompt;
  const options = question.choices.map((c) => `- **${c.id})** ${c.text}`).join('\n');
  return `${question.prompt}\n\n${options}\n\nAnswer with a letter or the option's words.`;
}

const squash = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

const NAMING_WORDS = new Set([
  'option',
  'choice',
  'is',
  "it's",
  'its',
  'pick',
  'choose',
  'think',
  'maybe',
  'answer',
  'guess',
  'say',
]);

function readChoice(message: string, choices: Choice[]): Choice | undefined {
  const said = ` ${squash(message)} `;
  const byText = choices.filter((c) => said.includes(` ${squash(c.text)} `));
  if (byText.length === 1) return byText[0];
  const ids = choices.map((c) => c.id.toLowerCase());
  const trimmed = message.trim().toLowerCase();
  const alone = /^\(?([a-z0-9]{1,3})\)?[.)]?$/.exec(trimmed);
  if (alone && ids.includes(alone[1]!)) return choices[ids.indexOf(alone[1]!)];
  // "I think it's b", "option c": an option's id as the last word, after words that name one.
  const words = trimmed
    .replace(/[\u2018\u2019]/g, "'")
    .split(/[^a-z0-9']+/)
    .filter(Boolean);
  const last = words.at(-1);
  const before = words.at(-2);
  if (last && before && ids.includes(last) && NAMING_WORDS.has(before)) {
    return choices[ids.indexOf(last)];
  }
  return undefined;
}

/** Numbers as people type them: unicode minus, thousands separators, decimal commas. */
function readNumber(message: string): { value: number; unit: string } | undefined {
  const text = message.replace(/[\u2212\u2013]/g, '-').replace(/(\d),(\d{3})\b/g, '$1$2');
  const numbers = [...text.matchAll(/(-?\d+(?:[.,]\d+)?)\s*([^\s\d.,;!?]*(?:\/[^\s\d.,;!?]+)?)/g)];
  if (numbers.length === 0) return undefined;
  const afterEquals = text.lastIndexOf('=');
  const chosen =
    numbers.length === 1
      ? numbers[0]!
      : (numbers.find((m) => afterEquals >= 0 && m.index > afterEquals) ?? numbers[0]!);
  return { value: Number(chosen[1]!.replace(',', '.')), unit: chosen[2] ?? '' };
}

const unitKey = (unit: string) => unit.toLowerCase().replace(/[\s.]/g, '');

/**
 * Judges a multiple-choice or numeric answer exactly; `undefined` for short text (the
 * evaluator's work).
 */
export function judgeExactly(
  question: AnswerKey,
  message: string,
  misconceptions: Misconception[] = [],
): Judgement | undefined {
  if (question.type === 'multiple_choice') {
    const picked = readChoice(message, question.choices);
    if (!picked) {
      const letters = question.choices.map((c) => c.id).join(', ');
      return {
        verdict: 'unclear',
        missing: [],
        feedback: `I could not tell which option you chose. Answer with one of ${letters}, or the option's words.`,
      };
    }
    if (picked.id === question.answer.choice) {
      return {
        verdict: 'correct',
        missing: [],
        feedback: `${picked.id}) ${picked.text} is right.`,
      };
    }
    const misconception = misconceptions.find((m) => m.choice === picked.id);
    return {
      verdict: 'incorrect',
      missing: [],
      feedback: misconception?.feedback ?? `${picked.id}) ${picked.text} is not the answer.`,
      ...(misconception ? { misconception } : {}),
    };
  }
  if (question.type === 'numeric') {
    const read = readNumber(message);
    if (!read || Number.isNaN(read.value)) {
      return {
        verdict: 'unclear',
        missing: [],
        feedback: 'I could not find a number in your answer. Answer with the value you worked out.',
      };
    }
    const { value, tolerance, unit } = question.answer;
    const close = Math.abs(read.value - value) <= tolerance + 1e-9;
    const unitGiven = read.unit !== '' && /[a-z%°]/i.test(read.unit);
    const unitWrong = unit !== '' && unitGiven && unitKey(read.unit) !== unitKey(unit);
    if (close && !unitWrong) {
      return { verdict: 'correct', missing: [], feedback: `${answerText(question)} is right.` };
    }
    if (close && unitWrong) {
      return {
        verdict: 'partially_correct',
        missing: [`the unit (${unit})`],
        feedback: `The number is right, but the unit should be ${unit}, not ${read.unit}.`,
      };
    }
    return {
      verdict: 'incorrect',
      missing: [],
      feedback: `${read.value}${read.unit && unitGiven ? ` ${read.unit}` : ''} is not the value.`,
    };
  }
  return undefined;
}
