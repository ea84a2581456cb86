import type { DialogueTurn, ExampleDialogue } from './example-dialogues';

/** Share of distinct words two texts have in common (Jaccard index), 0 to 1. */
export function wordOverlap(a: string, b: string): number {
  const words = (text: string) => new Set(text.toLowerCase().match(/[a-z']+/g) ?? []);
  const left = words(a);
  const right = words(b);
  if (left.size === 0 && right.size === 0) return 1;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared += 1;
  return shared / (left.size + right.size - shared);
}

/** Above this overlap a "new approach" counts as repeating an earlier coach turn. */
export const repetitionThreshold = 0.5;

/**
 * Checks that a worked example really shows the coach's method as the spec describes it:
 * the student opens, speakers alternate, the coach guides with questions, answers a wrong
 * answer with a different approach rather than repeating itself, gives a hint, and meets the
 * right answer with confirmation and an offer of another question. Returns the problems found.
 */
export function dialogueProblems(dialogue: ExampleDialogue): string[] {
  const problems: string[] = [];
  const { turns } = dialogue;
  if (turns.length < 2) return [`${dialogue.id}: a dialogue needs at least two turns`];

  const first = turns[0]!;
  if (first.speaker !== 'student' || first.move !== 'question') {
    problems.push(`${dialogue.id}: the student must open with a question`);
  }
  turns.forEach((turn, index) => {
    if (turn.text.trim() === '') problems.push(`${dialogue.id}: turn ${index + 1} is empty`);
    const previous = turns[index - 1];
    if (previous && previous.speaker === turn.speaker) {
      problems.push(`${dialogue.id}: turn ${index + 1} does not alternate speakers`);
    }
  });

  if (!turns.some((turn) => turn.move === 'guiding-question')) {
    problems.push(`${dialogue.id}: the coach never asks a guiding question`);
  }

  const wrongIndex = turns.findIndex((turn) => turn.move === 'wrong-answer');
  if (wrongIndex === -1) {
    problems.push(`${dialogue.id}: no wrong answer`);
  } else {
    const reply = turns[wrongIndex + 1];
    if (reply?.move !== 'new-approach') {
      problems.push(`${dialogue.id}: a wrong answer must be followed by a different approach`);
    } else {
      const earlierCoachTurns = turns
        .slice(0, wrongIndex)
        .filter(
          (turn): turn is Extract<DialogueTurn, { speaker: 'coach' }> => turn.speaker === 'coach',
        );
      if (
        earlierCoachTurns.some((turn) => wordOverlap(turn.text, reply.text) > repetitionThreshold)
      ) {
        problems.push(`${dialogue.id}: the different approach repeats an earlier coach turn`);
      }
    }
  }

  const hintIndex = turns.findIndex((turn) => turn.move === 'hint');
  const rightIndex = turns.findIndex((turn) => turn.move === 'right-answer');
  if (hintIndex === -1) problems.push(`${dialogue.id}: the coach never gives a hint`);
  if (rightIndex === -1) {
    problems.push(`${dialogue.id}: no right answer`);
  } else {
    if (hintIndex > rightIndex)
      problems.push(`${dialogue.id}: the hint comes after the right answer`);
    const reply = turns[rightIndex + 1];
    if (reply?.move !== 'confirmation-and-offer') {
      problems.push(`${dialogue.id}: a right answer must be followed by confirmation`);
    } else if (!/another question\?/i.test(reply.text)) {
      problems.push(`${dialogue.id}: the confirmation must offer another question`);
    }
  }
  return problems;
}
