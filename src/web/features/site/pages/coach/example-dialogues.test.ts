import { describe, expect, it } from 'vitest';
import { dialogueProblems, wordOverlap } from './dialogue-rules';
import { exampleDialogues, type ExampleDialogue } from './example-dialogues';

const [revolution, lungs] = exampleDialogues;

function withTurns(turns: ExampleDialogue['turns']): ExampleDialogue {
  return { ...revolution!, id: 'broken', turns };
}

describe('example dialogues', () => {
  it('cover the two topics the coach page promises', () => {
    expect(exampleDialogues.map((dialogue) => dialogue.topic)).toEqual([
      'Causes of the American Revolution',
      'The function of the lungs',
    ]);
  });

  it.each(exampleDialogues)('$topic follows the Socratic method', (dialogue) => {
    expect(dialogueProblems(dialogue)).toEqual([]);
  });

  it.each(exampleDialogues)(
    '$topic has exactly one wrong answer and one right answer',
    (dialogue) => {
      expect(dialogue.turns.filter((turn) => turn.move === 'wrong-answer')).toHaveLength(1);
      expect(dialogue.turns.filter((turn) => turn.move === 'right-answer')).toHaveLength(1);
    },
  );
});

describe('dialogueProblems', () => {
  it('rejects a dialogue where the coach repeats itself after a wrong answer', () => {
    const turns = revolution!.turns.map((turn) => ({ ...turn }));
    const wrong = turns.findIndex((turn) => turn.move === 'wrong-answer');
    turns[wrong + 1] = { speaker: 'coach', move: 'new-approach', text: turns[wrong - 1]!.text };
    expect(dialogueProblems(withTurns(turns))).toContain(
      'broken: the different approach repeats an earlier coach turn',
    );
  });

  it('rejects a wrong answer answered with a plain hint instead of a new approach', () => {
    const turns = lungs!.turns.map((turn) => ({ ...turn }));
    const wrong = turns.findIndex((turn) => turn.move === 'wrong-answer');
    turns[wrong + 1] = { speaker: 'coach', move: 'hint', text: 'Think about air sacs.' };
    expect(dialogueProblems(withTurns(turns))).toContain(
      'broken: a wrong answer must be followed by a different approach',
    );
  });

  it('rejects two turns in a row by the same speaker', () => {
    const turns = [...revolution!.turns];
    turns.splice(1, 0, { speaker: 'student', move: 'answer', text: 'Also, why 1776?' });
    expect(dialogueProblems(withTurns(turns))).toContain(
      'broken: turn 2 does not alternate speakers',
    );
  });

  it('rejects a confirmation that offers no further question', () => {
    const turns = revolution!.turns.map((turn) => ({ ...turn }));
    turns[turns.length - 1] = {
      speaker: 'coach',
      move: 'confirmation-and-offer',
      text: 'Correct.',
    };
    expect(dialogueProblems(withTurns(turns))).toContain(
      'broken: the confirmation must offer another question',
    );
  });

  it('rejects a dialogue the coach opens, or one with no wrong answer, hint or right answer', () => {
    const problems = dialogueProblems(
      withTurns([
        { speaker: 'coach', move: 'guiding-question', text: 'What do you know already?' },
        { speaker: 'student', move: 'answer', text: 'Not much.' },
      ]),
    );
    expect(problems).toEqual([
      'broken: the student must open with a question',
      'broken: no wrong answer',
      'broken: the coach never gives a hint',
      'broken: no right answer',
    ]);
  });

  it('rejects an empty or one-turn dialogue', () => {
    expect(dialogueProblems(withTurns([]))).toEqual([
      'broken: a dialogue needs at least two turns',
    ]);
  });

  it('measures word overlap symmetrically from 0 to 1', () => {
    expect(wordOverlap('the lungs', 'the lungs')).toBe(1);
    expect(wordOverlap('oxygen in', 'carbon out')).toBe(0);
    expect(wordOverlap('a b c', 'a b')).toBeCloseTo(2 / 3);
  });
});
