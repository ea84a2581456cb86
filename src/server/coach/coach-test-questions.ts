/** Bank questions for the coach's unit tests: one of each type, with the bank's full material. */
import type { BankQuestion } from './bank';

const prerequisite: BankQuestion['prerequisite'] = {
  concept: 'Inverse operations',
  refresher:
    'Every arithmetic operation has an **inverse** that undoes it. Addition and subtraction undo each other.',
  questions: [
    {
      prompt: 'What is the inverse of multiplying by 6?',
      type: 'multiple_choice',
      choices: [
        { id: 'a', text: 'Dividing by 6' },
        { id: 'b', text: 'Subtracting 6' },
        { id: 'c', text: 'Multiplying by −6' },
      ],
      answer: { choice: 'a' },
    },
    { prompt: 'Solve x + 13 = 20.', type: 'numeric', answer: { value: 7, tolerance: 0, unit: '' } },
  ],
};

export const numericQuestion: BankQuestion = {
  id: 'q-numeric',
  type: 'numeric',
  prompt: 'Solve for x: 4x − 9 = 23',
  moduleTitle: 'One-variable equations',
  answer: { value: 8, tolerance: 0, unit: '' },
  keyPoints: ['Add 9 to both sides: 4x = 32.', 'Divide both sides by 4: x = 8.'],
  hints: ['What has been done to x?', 'Undo the last operation first.'],
  workedExample: 'Solve 6x + 4 = 34: subtract 4, then divide by 6, so x = 5.',
  misconceptions: [
    { misconception: 'Subtract 9 from both sides.', feedback: 'To undo subtracting 9, add 9.' },
  ],
  prerequisite,
};

export const choiceQuestion: BankQuestion = {
  id: 'q-choice',
  type: 'multiple_choice',
  prompt: 'Which gas passes from the alveoli into the blood?',
  moduleTitle: 'Breathing',
  choices: [
    { id: 'a', text: 'Oxygen' },
    { id: 'b', text: 'Nitrogen' },
    { id: 'c', text: 'Carbon dioxide' },
  ],
  answer: { choice: 'a' },
  keyPoints: ['Alveoli are thin-walled.', 'Gases move down their partial-pressure gradient.'],
  hints: ['Think about what the blood carries to the cells.', 'It is the gas we inhale for.'],
  workedExample: 'Carbon dioxide moves the other way, from the blood into the alveoli.',
  misconceptions: [
    {
      misconception: 'The lungs absorb nitrogen.',
      feedback: 'Nitrogen is inhaled but not absorbed in any useful amount.',
      choice: 'b',
    },
  ],
  prerequisite,
};

export const textQuestion: BankQuestion = {
  id: 'q-text',
  type: 'short_text',
  prompt: 'Why did the colonists object to the Stamp Act?',
  moduleTitle: 'Causes',
  answer: { text: 'They were taxed without representation in Parliament.' },
  keyPoints: ['No colonial representatives sat in Parliament.', 'The tax was direct.'],
  hints: [
    'Who voted for the tax?',
    'Did the colonists elect anyone to Parliament?',
    'Think of the slogan.',
  ],
  workedExample: 'The Sugar Act was opposed for the same reason.',
  misconceptions: [
    {
      misconception: 'The tax was very high.',
      feedback: 'The amount was small; the principle mattered.',
    },
    { misconception: 'Britain banned newspapers.', feedback: 'Newspapers were taxed, not banned.' },
  ],
  prerequisite,
};
