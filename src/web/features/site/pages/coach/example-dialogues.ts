/**
 * Two worked example dialogues of the AI Study Coach, written as real Socratic exchanges.
 * Each coach turn names the move it makes, so the transcript can show (in text, not colour)
 * how the coach guides instead of telling.
 */

export type CoachMove = 'guiding-question' | 'new-approach' | 'hint' | 'confirmation-and-offer';

export type StudentMove = 'question' | 'answer' | 'wrong-answer' | 'right-answer';

export type DialogueTurn =
  | { speaker: 'student'; move: StudentMove; text: string }
  | { speaker: 'coach'; move: CoachMove; text: string };

export interface ExampleDialogue {
  id: string;
  subject: string;
  topic: string;
  mode: 'Study Session';
  turns: DialogueTurn[];
}

export const speakerLabels = { coach: 'Coach', student: 'Student' } as const;

export const moveLabels: Record<CoachMove | StudentMove, string> = {
  'guiding-question': 'Guiding question',
  'new-approach': 'Different approach',
  hint: 'Hint',
  'confirmation-and-offer': 'Confirmation and next question',
  question: 'Opening question',
  answer: 'Answer',
  'wrong-answer': 'Wrong answer',
  'right-answer': 'Right answer',
};

export const exampleDialogues: ExampleDialogue[] = [
  {
    id: 'american-revolution',
    subject: 'History',
    topic: 'Causes of the American Revolution',
    mode: 'Study Session',
    turns: [
      {
        speaker: 'student',
        move: 'question',
        text: 'What caused the American Revolution? I have an exam on it next week.',
      },
      {
        speaker: 'coach',
        move: 'guiding-question',
        text: "Let's work it out together. Start in 1763: Britain had just won the French and Indian War, but fighting it had cost an enormous amount. What do you think Britain needed most after such an expensive war?",
      },
      {
        speaker: 'student',
        move: 'answer',
        text: 'Money, I guess — to pay off its war debts.',
      },
      {
        speaker: 'coach',
        move: 'guiding-question',
        text: 'Good thinking. So where might Parliament in London look for that money?',
      },
      {
        speaker: 'student',
        move: 'wrong-answer',
        text: 'From France? France lost the war, so maybe Britain made France pay.',
      },
      {
        speaker: 'coach',
        move: 'new-approach',
        text: "That's a fair guess, but it's not where Parliament turned. Let's come at it from a different side. Imagine a council you never voted for decides to charge you a fee on every paper you sign and every newspaper you buy. In 1765, Parliament passed the Stamp Act, a tax on exactly those printed papers. Who do you think had to pay it?",
      },
      {
        speaker: 'student',
        move: 'answer',
        text: 'The colonists — they were the ones using those papers in America.',
      },
      {
        speaker: 'coach',
        move: 'hint',
        text: "Exactly. Here's a hint for the last step: think of the slogan colonists used, which pairs the word “taxation” with something they did not have in Parliament. Why did these taxes make them so angry?",
      },
      {
        speaker: 'student',
        move: 'right-answer',
        text: '“No taxation without representation!” They were taxed by a Parliament where they had no representatives of their own. Each new tax made that anger grow, until protest turned into a fight for independence.',
      },
      {
        speaker: 'coach',
        move: 'confirmation-and-offer',
        text: "That's it — well reasoned. You've linked the war debt, the new taxes on the colonies and the colonists' lack of representation, which together are the core causes historians point to. Would you like another question? We could look at how events such as the Boston Tea Party turned protest into open conflict.",
      },
    ],
  },
  {
    id: 'lungs',
    subject: 'Anatomy',
    topic: 'The function of the lungs',
    mode: 'Study Session',
    turns: [
      {
        speaker: 'student',
        move: 'question',
        text: 'What do the lungs actually do?',
      },
      {
        speaker: 'coach',
        move: 'guiding-question',
        text: 'Try this first: take a slow, deep breath in. What are you bringing into your body with that breath that your body needs?',
      },
      {
        speaker: 'student',
        move: 'answer',
        text: 'Oxygen.',
      },
      {
        speaker: 'coach',
        move: 'guiding-question',
        text: 'Right — your cells need oxygen to release energy from food. Once the air is inside your lungs, how do you think that oxygen gets into your blood?',
      },
      {
        speaker: 'student',
        move: 'wrong-answer',
        text: 'The lungs pump it into the blood, the way the heart pumps blood?',
      },
      {
        speaker: 'coach',
        move: 'new-approach',
        text: "Not quite — the lungs don't pump anything into the blood. Let's picture it another way. Put a drop of food colouring into a glass of still water: it spreads from where there is a lot of it to where there is little, with nothing pushing it. Your lungs end in millions of tiny air sacs called alveoli, each wrapped in capillaries with very thin walls. Where is there more oxygen: in the air inside the alveoli, or in the blood arriving from the body?",
      },
      {
        speaker: 'student',
        move: 'answer',
        text: 'In the air sacs. So the oxygen just spreads into the blood by itself?',
      },
      {
        speaker: 'coach',
        move: 'hint',
        text: "Yes — that spreading is called diffusion. One more piece: as your cells use oxygen they make a waste gas. Hint: it's the gas you breathe out. What happens to it in the alveoli?",
      },
      {
        speaker: 'student',
        move: 'right-answer',
        text: 'Carbon dioxide goes the other way, from the blood into the air sacs, and we breathe it out. So the lungs swap oxygen in for carbon dioxide out — gas exchange.',
      },
      {
        speaker: 'coach',
        move: 'confirmation-and-offer',
        text: "Spot on. The lungs' main job is gas exchange: oxygen diffuses from the alveoli into the blood, and carbon dioxide diffuses out of the blood to be breathed out. Would you like another question? We could look at how the diaphragm moves air in and out of the lungs.",
      },
    ],
  },
];
