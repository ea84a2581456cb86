import { describe, expect, it } from 'vitest';
import { evaluateAnswer } from './evaluate';

// The bank's penicillin question (content/courses/cell-biology/questions.json).
const penicillin = {
  question:
    'Penicillin kills many bacteria but does not harm human cells, and it is useless against the influenza virus. Explain both facts.',
  referenceAnswer:
    'Penicillin stops bacteria building their peptidoglycan cell walls, so growing bacteria burst. Human cells have no cell wall and no peptidoglycan, so the drug has no target in them. The influenza virus is not a cell: it has no cell wall and replicates inside our cells, so penicillin has nothing to act on.',
  keyPoints: [
    'Penicillin blocks synthesis of peptidoglycan, the bacterial cell-wall material.',
    'Animal cells have no cell wall, so there is no target.',
    'Viruses are not cells and have no cell wall; antibiotics do not work on them.',
  ],
};

describe('evaluateAnswer (offline)', () => {
  it('marks an answer that makes every key point correct, in other word forms', async () => {
    const result = await evaluateAnswer({
      ...penicillin,
      answer:
        'It blocks the synthesis of peptidoglycan in bacterial cell walls. Animal cells have no cell wall, so there is no target for it. Viruses are not cells, they have no cell wall, so antibiotics do not work on them.',
    });
    expect(result.verdict).toBe('correct');
    expect(result.missing).toEqual([]);
    expect(result.feedback).toMatch(/^Correct/);
  });

  it('marks an answer that makes some key points partially correct and lists the rest', async () => {
    const result = await evaluateAnswer({
      ...penicillin,
      answer: 'Penicillin blocks the making of peptidoglycan for the bacterial cell wall.',
    });
    expect(result.verdict).toBe('partially_correct');
    expect(result.missing).toEqual([penicillin.keyPoints[1], penicillin.keyPoints[2]]);
    expect(result.feedback).toContain(penicillin.keyPoints[1]);
  });

  it('marks an unrelated answer incorrect with every key point missing', async () => {
    const result = await evaluateAnswer({
      ...penicillin,
      answer: 'Because the immune system fights it off with white blood cells.',
    });
    expect(result.verdict).toBe('incorrect');
    expect(result.missing).toEqual(penicillin.keyPoints);
  });

  it('treats upper case, accents and typographic symbols like their plain forms', async () => {
    const result = await evaluateAnswer({
      question: 'What is the solution?',
      referenceAnswer: 'x = 4 and y = 3',
      keyPoints: ['x = 4', 'y = 3'],
      answer: 'X = 4, Y = 3',
    });
    expect(result.verdict).toBe('correct');
  });

  it('derives points from the reference answer when no key points are given', async () => {
    const result = await evaluateAnswer({
      question: 'Why does the lung collapse?',
      referenceAnswer:
        'Air enters the pleural cavity and equalises the pressure. The elastic recoil of the lung then makes it collapse.',
      answer: 'Air gets into the pleural cavity and equalises the pressure.',
    });
    expect(result.verdict).toBe('partially_correct');
    expect(result.missing).toEqual(['The elastic recoil of the lung then makes it collapse.']);
  });

  it('does not count a key point the answer negates', async () => {
    const result = await evaluateAnswer({
      question: 'Do animal cells have a cell wall?',
      referenceAnswer: 'No: animal cells have no cell wall.',
      keyPoints: ['Animal cells have no cell wall.', 'Plant cells have a cellulose cell wall.'],
      answer: 'Animal cells have a cell wall, and plant cells have a cellulose cell wall.',
    });
    expect(result.verdict).not.toBe('correct');
    expect(result.missing).toContain('Animal cells have no cell wall.');
  });

  it('answers an empty-looking answer as incorrect without throwing', async () => {
    const result = await evaluateAnswer({ ...penicillin, answer: 'the of and ...' });
    expect(result.verdict).toBe('incorrect');
    expect(result.missing).toEqual(penicillin.keyPoints);
  });
});
