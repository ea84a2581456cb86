/**
 * The teaching approaches the coach takes after a wrong answer or a call for help, built from
 * the bank question's own material (hints in order, worked example, misconceptions, key
 * points, the prerequisite), with Socratic wording that varies from turn to turn.
 *
 * Each approach has steps (the second hint, the third key point…); a step is used at most
 * once per question, which the session's teaching-history log records.
 */
import type { BankQuestion, Misconception } from './bank';

export type Approach =
  | 'rephrase'
  | 'hint'
  | 'misconception'
  | 'analogy'
  | 'worked_example'
  | 'sub_questions'
  | 'mnemonic';

export interface Move {
  approach: Approach;
  /** Which step of the approach: the hint's, misconception's or key point's index. */
  step: number;
}

export const moveKey = (move: Move) => `${move.approach}:${move.step}`;

/**
 * The order moves are tried in: the gentlest first, alternating kinds so that two replies in
 * a row never take the same approach while another is left.
 */
export function movesFor(question: BankQuestion): Move[] {
  const rounds: Move[][] = [];
  const add = (round: number, move: Move) => {
    (rounds[round] ??= []).push(move);
  };
  add(0, { approach: 'rephrase', step: 0 });
  add(0, { approach: 'hint', step: 0 });
  add(0, { approach: 'misconception', step: 0 });
  add(0, { approach: 'analogy', step: 0 });
  add(1, { approach: 'hint', step: 1 });
  add(1, { approach: 'worked_example', step: 0 });
  add(1, { approach: 'sub_questions', step: 0 });
  add(1, { approach: 'mnemonic', step: 0 });
  add(1, { approach: 'rephrase', step: 1 });
  const later = Math.max(
    question.hints.length,
    question.misconceptions.length,
    question.keyPoints.length,
    3,
  );
  for (let step = 2; step < later + 1; step += 1) {
    if (step < question.hints.length) add(step, { approach: 'hint', step });
    if (step - 1 < question.misconceptions.length)
      add(step, { approach: 'misconception', step: step - 1 });
    if (step - 1 < question.keyPoints.length)
      add(step, { approach: 'sub_questions', step: step - 1 });
    if (step < 3) add(step, { approach: 'rephrase', step });
  }
  return rounds
    .flat()
    .filter(
      (move) => move.approach !== 'misconception' || move.step < question.misconceptions.length,
    );
}

/** Picks one of several wordings by the turn number, so repeated situations read differently. */
export function vary<T>(options: readonly T[], turn: number): T {
  return options[((turn % options.length) + options.length) % options.length]!;
}

const REPHRASES = [
  (prompt: string) =>
    `Let's look at the question again, one piece at a time:\n\n${prompt}\n\nWhat is it asking you to find, and what do you already know?`,
  (prompt: string) =>
    `Try putting the question in your own words first. What would a complete answer need to mention?\n\n${prompt}`,
  (prompt: string) =>
    `Read it once more, slowly:\n\n${prompt}\n\nWhich word or number in it matters most, and why?`,
];

const HINT_FRAMES = [
  (n: number, hint: string) => `Here is hint ${n}: ${hint}\n\nWhat does that suggest?`,
  (n: number, hint: string) => `Hint ${n}: ${hint}\n\nHow would you use that to get closer?`,
  (n: number, hint: string) =>
    `Let me give you hint ${n}. ${hint}\n\nWhat would your next step be?`,
];

function firstSentence(markdown: string): string {
  const plain = markdown.replace(/[*_`#>]/g, '').trim();
  const match = /^(.{20,400}?[.!?])(\s|$)/s.exec(plain);
  return (match ? match[1]! : plain.slice(0, 300)).trim();
}

/** Initials of the key points' leading words: a memory aid the learner can say aloud. */
function mnemonicOf(keyPoints: string[]): { initials: string; words: string[] } {
  const words = keyPoints.map((point) => {
    const word = /[A-Za-z][A-Za-z'-]*/.exec(point)?.[0] ?? point.slice(0, 1);
    return word.charAt(0).toUpperCase() + word.slice(1);
  });
  return { initials: words.map((w) => w.charAt(0)).join('-'), words };
}

export function misconceptionText(m: Misconception): string {
  return `A common slip here is to think: *${m.misconception}* ${m.feedback}`;
}

/** The reply text of one move for one question. */
export function moveText(move: Move, question: BankQuestion, turn: number): string {
  switch (move.approach) {
    case 'rephrase':
      return REPHRASES[move.step % REPHRASES.length]!(question.prompt);
    case 'hint':
      return vary(HINT_FRAMES, turn)(move.step + 1, question.hints[move.step]!);
    case 'misconception':
      return `${misconceptionText(question.misconceptions[move.step]!)}\n\nDoes that change how you see the question?`;
    case 'analogy':
      return `Think of how this connects to **${question.prerequisite.concept}**: ${firstSentence(
        question.prerequisite.refresher,
      )}\n\nHow does that idea apply to this question?`;
    case 'worked_example':
      return `Here is a worked example of a similar problem:\n\n${question.workedExample}\n\nNow try the same steps on the original question.`;
    case 'sub_questions':
      return `Let's break it into smaller steps. Step ${move.step + 1}: ${question.keyPoints[move.step]!}\n\nWith that step in hand, what comes next?`;
    case 'mnemonic': {
      const { initials, words } = mnemonicOf(question.keyPoints);
      return `A memory aid: **${initials}** (${words.join(', ')}), one letter per key idea. Which of them does your answer leave out?`;
    }
  }
}
