/**
 * The study coach's conversation (spec section 1, issue 13) as pure code: one learner message
 * in, the next state, the reply and the teaching-history entries out. No I/O: the caller loads
 * the session, the bank questions and the log, judges an answer when `needsJudgement` says so
 * (exactly for options and numbers, with the answer evaluator for short text), and stores what
 * comes back.
 *
 * Study sessions: `new_question` → ask → `awaiting_answer`; a right answer is confirmed with
 * why and another question offered; a wrong answer or a call for help gets an approach not yet
 * used on this question (never an earlier reply of the session); at the organization's
 * struggle threshold of consecutive misses the refresher is offered: accepted, its lesson and
 * basic questions (each judged), then the original question again; declined, a new approach.
 *
 * Quizzes: a wrong answer gets Socratic feedback and the next hint; after two misses on a
 * question its answer is shown and the quiz moves on. The stated rule for "consistently
 * wrong": `threshold` misses among the last `threshold + 1` judged answers offer a study
 * session on the same question.
 */
import type { CoachMode, CoachOffer, CoachState } from '../../common/coach-chat';
import { type Move, misconceptionText, moveKey, moveText, movesFor, vary } from './approaches';
import {
  answerText,
  type BankQuestion,
  type BasicQuestion,
  type Judgement,
  promptText,
  type Verdict,
} from './bank';
import type { Intent } from './intents';

/** What a session remembers between messages (stored as JSON beside the session's row). */
export interface MachineState {
  mode: CoachMode;
  state: CoachState;
  offer: CoachOffer | null;
  /** The question being worked on (in a refresher: the one to return to). */
  questionId: string | null;
  /** Misses (wrong answers and calls for help) in a row on the current question. */
  streak: number;
  /** Inside an accepted refresher: which basic question is being asked. */
  refresherStep: number | null;
  /** Quiz: wrong tries on the current question. */
  tries: number;
  /** Quiz: the last judged answers, true for a miss (for the "consistently wrong" rule). */
  recent: boolean[];
  /** Questions asked in this session, in order. */
  asked: string[];
  /** Digests of every reply of the session, so none is ever sent twice. */
  replies: string[];
  turn: number;
}

export function initialState(mode: CoachMode): MachineState {
  return {
    mode,
    state: 'new_question',
    offer: null,
    questionId: null,
    streak: 0,
    refresherStep: null,
    tries: 0,
    recent: [],
    asked: [],
    replies: [],
    turn: 0,
  };
}

/** One row of the teaching-history log. */
export interface HistoryEntry {
  questionId: string | null;
  approach: string;
  /** The approach's step (`hint:1`), so no step is used twice on a question. */
  move: string | null;
  answer: string | null;
  verdict: Verdict | null;
}

export interface TurnInput {
  message: string;
  intent: Intent;
  /** Present when `needsJudgement` asked for it. */
  judgement?: Judgement;
}

export interface MachineContext {
  /** The course's (or topic's) bank questions, in teaching order. */
  pool: readonly BankQuestion[];
  /** The organization's struggle threshold (1–10; 3 by default). */
  threshold: number;
  /** The session's teaching-history log so far, oldest first. */
  history: readonly HistoryEntry[];
}

export interface TurnResult {
  state: MachineState;
  reply: string;
  questionId: string | null;
  log: HistoryEntry[];
}

export const DEFAULT_STRUGGLE_THRESHOLD = 3;
/** Quiz: wrong tries on one question before its answer is shown. */
export const QUIZ_TRIES_PER_QUESTION = 2;

/** The question an answer in this state answers, to be judged; undefined when none. */
export function answerTarget(
  state: MachineState,
  pool: readonly BankQuestion[],
): { question: BankQuestion; basic?: BasicQuestion } | undefined {
  if (state.state !== 'awaiting_answer' || !state.questionId) return undefined;
  const question = pool.find((q) => q.id === state.questionId);
  if (!question) return undefined;
  if (state.refresherStep !== null) {
    const basic = question.prerequisite.questions[state.refresherStep];
    return basic ? { question, basic } : undefined;
  }
  return { question };
}

/** Whether this message is an answer to judge before `advance`. */
export function needsJudgement(state: MachineState, intent: Intent): boolean {
  if (state.state !== 'awaiting_answer') return false;
  if (state.offer && (intent === 'accept' || intent === 'decline')) return false;
  return intent === 'other';
}

/** FNV-1a over the reply's words: equal replies have equal digests. */
export function digest(reply: string): string {
  let hash = 0x811c9dc5;
  const text = reply.toLowerCase().replace(/\s+/g, ' ').trim();
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${hash.toString(16)}:${text.length}`;
}

const WRONG_OPENERS = [
  'Not quite.',
  'Not yet, but let us keep going.',
  "That isn't it yet.",
  "Good try, but that's not right.",
  'Not this time.',
  "Hmm, that doesn't hold up.",
];
const PARTIAL_OPENERS = [
  "You're partly right.",
  "You're on the right track.",
  'Part of that is right.',
  'Some of that is there.',
];
const HELP_OPENERS = [
  "Of course, let's work through it.",
  "No problem, here's another way in.",
  "Let's take it step by step.",
  "That's what I'm here for.",
  "Sure, let's look at it differently.",
];
const RIGHT_OPENERS = [
  "That's right!",
  'Correct!',
  'Exactly right.',
  'Yes, well done.',
  'Spot on.',
];
const ASK_OPENERS = [
  'Here is a question for you:',
  "Let's try this one:",
  'Try this question:',
  'Next question:',
  'Have a go at this:',
];
const QUIZ_PROBES = [
  'What made you choose that answer?',
  'Which step would you check first?',
  'What would you expect if that were true?',
  'How could you test your answer?',
];

interface Draft {
  next: MachineState;
  reply: string;
  log: HistoryEntry[];
}

/**
 * The machine's one entry: the reply to `input` in `state`. Replies already sent in this
 * session are never sent again (a digest is kept for each).
 */
export function advance(state: MachineState, input: TurnInput, ctx: MachineContext): TurnResult {
  const current = { ...state, turn: state.turn + 1 };
  const draft = step(current, input, ctx);
  const reply = unique(draft.reply, current);
  const next = { ...draft.next, replies: [...current.replies, digest(reply)] };
  return { state: next, reply, questionId: next.questionId, log: draft.log };
}

/** A reply seen before gets a different opening; in the last resort, the turn's number. */
function unique(reply: string, state: MachineState): string {
  const seen = new Set(state.replies);
  if (!seen.has(digest(reply))) return reply;
  for (const opener of [...HELP_OPENERS, ...WRONG_OPENERS]) {
    const candidate = `${opener} ${reply}`;
    if (!seen.has(digest(candidate))) return candidate;
  }
  return `${reply}\n\n(Message ${state.turn} of this session.)`;
}

function step(state: MachineState, input: TurnInput, ctx: MachineContext): Draft {
  const question = ctx.pool.find((q) => q.id === state.questionId);
  if (state.offer && (input.intent === 'accept' || input.intent === 'decline')) {
    return answerOffer(state, input.intent, question, ctx);
  }
  if (state.state === 'new_question' || !question) return ask(state, ctx, '');
  const offerless = { ...state, offer: null };
  if (state.refresherStep !== null) return refresherTurn(offerless, input, question);
  if (input.intent === 'basics') return startRefresher(offerless, question);
  if (input.intent === 'help') return miss(offerless, input, question, ctx, null);
  const judgement = input.judgement;
  if (!judgement) return miss(offerless, { ...input, intent: 'help' }, question, ctx, null);
  if (judgement.verdict === 'unclear') {
    return {
      next: offerless,
      reply: `${judgement.feedback}\n\n${promptText(question)}`,
      log: [],
    };
  }
  if (judgement.verdict === 'correct') return right(offerless, input, judgement, question, ctx);
  return miss(offerless, input, question, ctx, judgement);
}

function entry(
  question: { id: string } | undefined | null,
  approach: string,
  extra: Partial<HistoryEntry> = {},
): HistoryEntry {
  return {
    questionId: question?.id ?? null,
    approach,
    move: null,
    answer: null,
    verdict: null,
    ...extra,
  };
}

/** Asks the next question of the pool not yet asked in this session. */
function ask(state: MachineState, ctx: MachineContext, lead: string): Draft {
  const nextQuestion = ctx.pool.find((q) => !state.asked.includes(q.id));
  const prefix = lead ? `${lead}\n\n` : '';
  if (!nextQuestion) {
    const reply =
      ctx.pool.length === 0
        ? 'There are no practice questions for this course or topic yet. Try another topic, or ask me something in General Knowledge mode.'
        : `You have worked through all ${ctx.pool.length} questions on this topic in this session. Start a new session to go through them again, or pick another topic.`;
    return {
      next: { ...state, state: 'new_question', offer: null, questionId: null, refresherStep: null },
      reply: `${prefix}${reply}`,
      log: [],
    };
  }
  return {
    next: {
      ...state,
      state: 'awaiting_answer',
      offer: null,
      questionId: nextQuestion.id,
      streak: 0,
      tries: 0,
      refresherStep: null,
      asked: [...state.asked, nextQuestion.id],
    },
    reply: `${prefix}${vary(ASK_OPENERS, state.turn)}\n\n${promptText(nextQuestion)}`,
    log: [entry(nextQuestion, 'question')],
  };
}

function answerOffer(
  state: MachineState,
  intent: 'accept' | 'decline',
  question: BankQuestion | undefined,
  ctx: MachineContext,
): Draft {
  const cleared = { ...state, offer: null };
  switch (state.offer) {
    case 'another_question':
      if (intent === 'accept') return ask(cleared, ctx, '');
      return {
        next: { ...cleared, state: 'new_question' },
        reply: vary(
          [
            'Alright. Whenever you want another question, just say so.',
            'Fine. Send me a message when you are ready for the next one.',
            'No problem. Tell me when you want to continue.',
          ],
          state.turn,
        ),
        log: [],
      };
    case 'refresher':
      if (!question) return ask(cleared, ctx, '');
      if (intent === 'accept') return startRefresher(cleared, question);
      return newApproach(
        cleared,
        question,
        ctx,
        vary(
          [
            "Alright, let's keep at the question itself.",
            "OK, we'll stay with the question.",
            'Fine, here is another way to look at it.',
          ],
          state.turn,
        ),
        null,
        null,
      );
    case 'study_session':
      if (!question) return ask({ ...cleared, mode: 'study' }, ctx, '');
      if (intent === 'accept') {
        const study: MachineState = {
          ...cleared,
          mode: 'study',
          state: 'awaiting_answer',
          streak: 0,
          tries: 0,
          recent: [],
        };
        return newApproach(
          study,
          question,
          ctx,
          "Good idea. This is now a study session on the same topic: we'll work through this question together, one step at a time.",
          null,
          null,
        );
      }
      return quizNext({ ...cleared, recent: [] }, ctx, 'Alright, the quiz goes on.');
    default:
      return ask(cleared, ctx, '');
  }
}

function startRefresher(state: MachineState, question: BankQuestion): Draft {
  const { concept, refresher, questions } = question.prerequisite;
  return {
    next: { ...state, state: 'awaiting_answer', offer: null, refresherStep: 0 },
    reply: `Let's go back to the basics: **${concept}**.\n\n${refresher}\n\nNow a basic question (1 of ${questions.length}):\n\n${promptText(questions[0]!)}`,
    log: [entry(question, 'refresher', { move: `refresher:${concept}` })],
  };
}

function refresherTurn(state: MachineState, input: TurnInput, question: BankQuestion): Draft {
  const index = state.refresherStep ?? 0;
  const basics = question.prerequisite.questions;
  const basic = basics[index]!;
  const judgement = input.intent === 'other' ? input.judgement : undefined;
  if (judgement?.verdict === 'unclear') {
    return { next: state, reply: `${judgement.feedback}\n\n${promptText(basic)}`, log: [] };
  }
  const right = judgement?.verdict === 'correct';
  const verdict: Verdict | null = judgement
    ? judgement.verdict === 'correct'
      ? 'correct'
      : judgement.verdict === 'partially_correct'
        ? 'partially_correct'
        : 'incorrect'
    : null;
  const said = right
    ? `${vary(RIGHT_OPENERS, state.turn)} The answer is ${answerText(basic)}.`
    : judgement
      ? `Not quite: the answer is ${answerText(basic)}.${judgement.feedback && basic.type === 'short_text' ? ` ${judgement.feedback}` : ''}`
      : `Here is that one: the answer is ${answerText(basic)}.`;
  const log = [
    entry(question, 'refresher_question', {
      move: `basic:${index}`,
      answer: input.intent === 'other' ? input.message : null,
      verdict,
    }),
  ];
  if (index + 1 < basics.length) {
    return {
      next: { ...state, refresherStep: index + 1 },
      reply: `${said}\n\nBasic question ${index + 2} of ${basics.length}:\n\n${promptText(basics[index + 1]!)}`,
      log,
    };
  }
  return {
    next: { ...state, refresherStep: null, streak: 0 },
    reply: `${said}\n\nThat's the refresher done. Now back to the original question:\n\n${promptText(question)}`,
    log: [...log, entry(question, 'question', { move: 'return' })],
  };
}

function right(
  state: MachineState,
  input: TurnInput,
  judgement: Judgement,
  question: BankQuestion,
  ctx: MachineContext,
): Draft {
  const why =
    `${judgement.feedback} ${question.keyPoints.length > 0 ? `Why: ${question.keyPoints.join(' ')}` : ''}`.trim();
  const log = [entry(question, 'confirmation', { answer: input.message, verdict: 'correct' })];
  if (state.mode === 'quiz') {
    const recent = [...state.recent, false].slice(-(ctx.threshold + 1));
    const next = quizNext({ ...state, recent }, ctx, `${vary(RIGHT_OPENERS, state.turn)} ${why}`);
    return { ...next, log: [...log, ...next.log] };
  }
  return {
    next: { ...state, state: 'new_question', offer: 'another_question', streak: 0 },
    reply: `${vary(RIGHT_OPENERS, state.turn)} ${why}\n\nWould you like another question?`,
    log,
  };
}

/** The next quiz question, after `lead`; the quiz stays in `awaiting_answer` while any remain. */
function quizNext(state: MachineState, ctx: MachineContext, lead: string): Draft {
  return ask({ ...state, tries: 0 }, ctx, lead);
}

/** A wrong answer (judgement) or a call for help (none). */
function miss(
  state: MachineState,
  input: TurnInput,
  question: BankQuestion,
  ctx: MachineContext,
  judgement: Judgement | null,
): Draft {
  const verdict: Verdict | null = judgement
    ? judgement.verdict === 'partially_correct'
      ? 'partially_correct'
      : 'incorrect'
    : null;
  const opener = judgement
    ? verdict === 'partially_correct'
      ? `${vary(PARTIAL_OPENERS, state.turn)}${judgement.missing.length > 0 ? ` Still missing: ${judgement.missing.join('; ')}.` : ''}`
      : vary(WRONG_OPENERS, state.turn)
    : vary(HELP_OPENERS, state.turn);
  const feedback =
    judgement && judgement.feedback && !judgement.misconception && question.type === 'short_text'
      ? ` ${judgement.feedback}`
      : '';
  const answer = input.intent === 'other' ? input.message : null;
  if (state.mode === 'quiz') return quizMiss(state, input, question, ctx, judgement, opener);

  const streak = state.streak + 1;
  const offered = ctx.history.some(
    (h) => h.questionId === question.id && h.approach === 'refresher_offer',
  );
  if (streak >= ctx.threshold && !offered) {
    const misconception = judgement?.misconception
      ? ` ${misconceptionText(judgement.misconception)}`
      : feedback;
    return {
      next: { ...state, streak, offer: 'refresher' },
      reply: `${opener}${misconception}\n\nThis one is taking a few tries, which is normal. Would you like a short refresher on **${question.prerequisite.concept}** first? We will come back to this question afterwards.`,
      log: [entry(question, 'refresher_offer', { answer, verdict, move: `streak:${streak}` })],
    };
  }
  return newApproach(
    { ...state, streak },
    question,
    ctx,
    `${opener}${feedback}`,
    answer,
    verdict,
    judgement,
  );
}

/** The next unused move on this question; when none is left, the answer is walked through. */
function newApproach(
  state: MachineState,
  question: BankQuestion,
  ctx: MachineContext,
  opener: string,
  answer: string | null,
  verdict: Verdict | null,
  judgement: Judgement | null = null,
): Draft {
  const used = new Set(
    ctx.history.filter((h) => h.questionId === question.id && h.move).map((h) => h.move!),
  );
  const last = [...ctx.history].reverse().find((h) => h.questionId === question.id && h.move);
  const lastApproach = last?.move?.split(':')[0];
  const fresh = movesFor(question).filter((move) => !used.has(moveKey(move)));
  // The misconception the answer shows comes first, when it has not been named yet.
  const shown = judgement?.misconception
    ? fresh.find(
        (m) =>
          m.approach === 'misconception' &&
          question.misconceptions[m.step]?.misconception === judgement.misconception?.misconception,
      )
    : undefined;
  const choice: Move | undefined =
    shown ?? fresh.find((m) => m.approach !== lastApproach) ?? fresh[0];
  if (!choice) {
    return {
      next: { ...state, state: 'new_question', offer: 'another_question', streak: 0 },
      reply: `${opener}\n\nWe have tried every approach I have for this one, so let's walk through the answer together. The answer is **${answerText(question)}**.\n\n${question.keyPoints.map((p, i) => `${i + 1}. ${p}`).join('\n')}\n\nWould you like another question?`,
      log: [entry(question, 'reveal', { answer, verdict, move: 'reveal' })],
    };
  }
  return {
    next: { ...state, state: 'awaiting_answer' },
    reply: `${opener}\n\n${moveText(choice, question, state.turn)}`,
    log: [entry(question, choice.approach, { answer, verdict, move: moveKey(choice) })],
  };
}

function quizMiss(
  state: MachineState,
  input: TurnInput,
  question: BankQuestion,
  ctx: MachineContext,
  judgement: Judgement | null,
  opener: string,
): Draft {
  const answer = input.intent === 'other' ? input.message : null;
  const verdict: Verdict | null = judgement
    ? judgement.verdict === 'partially_correct'
      ? 'partially_correct'
      : 'incorrect'
    : null;
  const tries = state.tries + 1;
  const recent = judgement ? [...state.recent, true].slice(-(ctx.threshold + 1)) : state.recent;
  const misses = recent.filter(Boolean).length;
  const consistentlyWrong = judgement !== null && misses >= ctx.threshold;
  const feedback = judgement?.misconception
    ? misconceptionText(judgement.misconception)
    : judgement?.feedback && question.type === 'short_text'
      ? judgement.feedback
      : '';
  const probe = vary(QUIZ_PROBES, state.turn);
  const log = [entry(question, 'quiz_feedback', { answer, verdict, move: `try:${tries}` })];
  if (consistentlyWrong) {
    return {
      next: { ...state, tries, recent, offer: 'study_session' },
      reply: `${opener} ${feedback}\n\nYou have missed ${misses} of your last ${recent.length} answers. Would you like to switch to a study session on this topic, where we work through this question step by step?`,
      log: [...log, entry(question, 'study_session_offer', { move: `misses:${misses}` })],
    };
  }
  if (tries >= QUIZ_TRIES_PER_QUESTION || tries > question.hints.length) {
    const shown = `${opener} ${feedback}\n\nThe answer is **${answerText(question)}**: ${question.keyPoints[0] ?? ''}`;
    const next = quizNext({ ...state, recent }, ctx, shown.trim());
    return {
      ...next,
      log: [...log, entry(question, 'reveal', { move: 'reveal' }), ...next.log],
    };
  }
  const hint = question.hints[tries - 1]!;
  return {
    next: { ...state, tries, recent },
    reply: `${opener} ${feedback}\n\n${probe} A hint: ${hint}`.replace(/ {2,}/g, ' '),
    log: [...log, entry(question, 'hint', { move: `hint:${tries - 1}` })],
  };
}
