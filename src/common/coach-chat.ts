/**
 * The `ai-study-chat` function's contract (issue 13), shared by the server, the coach page and
 * the tests: the request body, the answer, and the words of the offer buttons, which the server
 * also accepts as messages. A message is checked as every coach text is (`coachText`: not
 * empty, at most 8 KB, no control characters).
 */
import { z } from 'zod';
import { coachText } from './coach';

export const COACH_MODES = ['study', 'quiz', 'general'] as const;
export type CoachMode = (typeof COACH_MODES)[number];

export const COACH_STATES = ['new_question', 'awaiting_answer'] as const;
export type CoachState = (typeof COACH_STATES)[number];

export const COACH_OFFERS = ['refresher', 'another_question', 'study_session'] as const;
export type CoachOffer = (typeof COACH_OFFERS)[number];

export const chatRequestSchema = z.strictObject({
  session_id: z.uuid('session_id must be the id of one of your coach sessions').optional(),
  mode: z.enum(COACH_MODES, 'mode must be study, quiz or general'),
  course_id: z.uuid('course_id must be a course id').optional(),
  topic: z.string().trim().max(200, 'topic must be at most 200 characters').optional(),
  message: coachText('message'),
});
export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** Which engine wrote the reply: the built-in offline one, or a configured model. */
export interface ChatEngine {
  kind: 'offline' | 'model';
  /** For a model: provider and model name, as the UI shows them. */
  label: string;
}

export interface ChatResponse {
  session_id: string;
  mode: CoachMode;
  state: CoachState;
  offer: CoachOffer | null;
  reply: string;
  question_id?: string;
  /** Not in the spec's contract, added beside it: who answered, for the UI to say. */
  engine?: ChatEngine;
}

/** The offer buttons: what each sends when pressed (the server reads these as accept/decline). */
export const OFFER_BUTTONS: Record<CoachOffer, { accept: string; decline: string }> = {
  refresher: { accept: 'Yes, show me the refresher', decline: 'No, keep trying' },
  another_question: { accept: 'Yes, another question', decline: 'No, not now' },
  study_session: { accept: 'Yes, switch to a study session', decline: 'No, stay in the quiz' },
};

/** The quick action's text. */
export const STUCK_MESSAGE = "I'm stuck";

/** One row of the teaching history the learner sees. */
export interface TeachingHistoryEntry {
  question_id: string | null;
  question_prompt: string | null;
  approach: string;
  learner_answer: string | null;
  verdict: 'correct' | 'partially_correct' | 'incorrect' | null;
  created_at: string;
}

/** What each approach is called on the page ("approaches tried"). */
export const APPROACH_LABELS: Record<string, string> = {
  question: 'Asked the question',
  rephrase: 'Rephrased the question',
  hint: 'Gave a hint',
  analogy: 'Drew an analogy with the basics',
  worked_example: 'Showed a worked example',
  sub_questions: 'Broke it into smaller questions',
  misconception: 'Named a misconception',
  mnemonic: 'Offered a memory aid',
  refresher_offer: 'Offered a refresher',
  refresher: 'Taught the refresher',
  refresher_question: 'Asked a basic question',
  confirmation: 'Confirmed a right answer',
  reveal: 'Walked through the answer',
  quiz_feedback: 'Gave Socratic feedback',
  study_session_offer: 'Offered a study session',
  knowledge_answer: 'Answered from the course material',
};
