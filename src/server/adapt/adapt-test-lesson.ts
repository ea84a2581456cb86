/**
 * A structured lesson the adapt tests, the browser test and the audio bench share: written
 * for the project, with numbers, dates, names and key terms for the fidelity gate to track.
 */
import type { StructuredLesson } from './lesson';

export function adaptTestLesson(): StructuredLesson {
  return {
    title: 'Photosynthesis',
    language: 'en',
    objectives: [
      {
        verb: 'explain',
        text: 'Explain how a plant makes glucose from light, water and carbon dioxide.',
      },
      { verb: 'identify', text: 'Identify the parts of a chloroplast that utilize light.' },
    ],
    sections: [
      {
        id: 'what-it-is',
        heading: 'What photosynthesis is',
        body:
          'Photosynthesis is the process by which green plants utilize the energy of sunlight in order to ' +
          'manufacture glucose from carbon dioxide and water, and it releases oxygen as a by-product that ' +
          'most living organisms subsequently require for respiration. Jan Ingenhousz demonstrated in 1779 ' +
          'that plants need light to produce oxygen.\n\n' +
          'A typical leaf converts approximately 3 percent of the light that reaches it into chemical energy; ' +
          'the remainder is reflected, transmitted or dissipated as heat.',
        sources: [{ kind: 'page', page: 1 }],
      },
      {
        id: 'chloroplasts',
        heading: 'Chloroplasts',
        body:
          'The reactions take place in the **chloroplast**, an organelle that contains the green pigment ' +
          'chlorophyll.\n\n' +
          '- The thylakoid membranes capture light.\n' +
          '- The stroma holds the enzymes of the Calvin cycle.',
        sources: [{ kind: 'page', page: 2 }],
      },
    ],
    glossary: [
      {
        term: 'chlorophyll',
        definition:
          'The green pigment in chloroplasts that absorbs light energy, principally in the red and blue parts of the spectrum.',
      },
      {
        term: 'Calvin cycle',
        definition: 'The reactions in the stroma that fix carbon dioxide into sugar.',
      },
    ],
    quiz: [
      {
        kind: 'multiple_choice',
        id: 'gas-released',
        sectionId: 'what-it-is',
        prompt: 'Which gas do plants release during photosynthesis?',
        choices: [
          { id: 'a', text: 'Oxygen' },
          { id: 'b', text: 'Carbon dioxide' },
          { id: 'c', text: 'Nitrogen' },
        ],
        answer: 'a',
        keyPoints: ['Oxygen is released', 'It comes from splitting water'],
        difficulty: 1,
      },
      {
        kind: 'cloze',
        id: 'pigment',
        sectionId: 'chloroplasts',
        text: 'The green pigment in chloroplasts is called ____.',
        answer: 'chlorophyll',
        keyPoints: ['chlorophyll', 'it absorbs light'],
        difficulty: 1,
      },
      {
        kind: 'short_answer',
        id: 'why-light',
        sectionId: 'what-it-is',
        prompt: 'Why does a plant need light for photosynthesis?',
        referenceAnswer:
          'Light provides the energy the plant uses to turn carbon dioxide and water into glucose.',
        keyPoints: ['light provides energy', 'carbon dioxide and water become glucose'],
        difficulty: 2,
      },
    ],
  };
}
