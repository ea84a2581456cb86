/**
 * One turn of the study coach, in two phases (decisions 0210, 0220).
 *
 * `beginTurn` decides and stores the turn: the caller's session loaded (or started), the
 * message metered (`track_usage`; over the allowance, a 429 with the reset date), read for
 * intents, an answer judged (options and numbers exactly, short text by the answer evaluator,
 * with the route's model when one is configured), the state machine advanced, and the turn
 * saved only if nobody saved another turn of the session meanwhile — otherwise it is decided
 * again on the newer state, so two messages sent at once to one session are answered one
 * after the other. Refusals are thrown here, before anything is sent.
 *
 * `finish` then has a configured model say the decided reply in its own words (streamed), or
 * answer a General Knowledge question from the passages found, and stores its words in place
 * of the offline reply. No model, or a model that fails: the offline reply stands.
 * HTTP lives in functions/ai-study-chat.ts.
 */
import type { ChatEngine, ChatRequest, ChatResponse } from '../../common/coach-chat';
import type { Evaluation } from '../../common/coach';
import type { AiProvider } from '../ai/provider';
import type { Database } from '../db/types';
import { type Judgement, judgeExactly } from './bank';
import type { EvaluationInput } from './evaluate';
import { detectIntent } from './intents';
import { knowledgeReply, searchKnowledge, type KnowledgeHit } from './knowledge-base';
import { generalRequest, modelRoute, tutorRequest } from './model-replies';
import {
  appendReplyDigest,
  courseFacts,
  createSession,
  loadHistory,
  loadQuestions,
  loadRecentMessages,
  loadSession,
  mayStudy,
  meterMessage,
  replaceReply,
  saveTurn,
  SessionMovedOnError,
  type SessionRow,
} from './sessions';
import { advance, answerTarget, digest, needsJudgement } from './state-machine';

/** The answer evaluator (evaluate.ts's `evaluateAnswer`, or a stand-in in tests). */
export type EvaluateAnswer = (
  input: EvaluationInput,
  options: { ai?: AiProvider; route?: 'personal' | 'general' },
) => Promise<Evaluation>;

export class CoachError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409 | 429,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface CoachDeps {
  db: Database;
  evaluate: EvaluateAnswer;
  ai: AiProvider;
}

export const OFFLINE_ENGINE: ChatEngine = { kind: 'offline', label: 'Built-in offline coach' };

/** Times a turn is decided again because another turn of its session was saved first. */
const MAX_ATTEMPTS = 8;

async function openSession(
  deps: CoachDeps,
  userId: string,
  request: ChatRequest,
): Promise<SessionRow> {
  if (request.session_id) {
    const session = await loadSession(deps.db, userId, request.session_id);
    // Another user's session reads exactly like one that does not exist.
    if (!session) {
      throw new CoachError(404, 'session_not_found', 'No such coach session. Start a new one.');
    }
    await meter(deps, userId, session.mode, session.course_id, session.id);
    return session;
  }
  const courseId = request.course_id ?? null;
  if (!courseId && request.mode !== 'general') {
    throw new CoachError(400, 'course_required', 'Choose a course for a study session or a quiz.');
  }
  let title = 'General questions';
  if (courseId) {
    if (!(await mayStudy(deps.db, userId, courseId))) {
      throw new CoachError(
        403,
        'not_enrolled',
        'You are not enrolled in this course. Enrol in it from the course library first.',
      );
    }
    const facts = await courseFacts(deps.db, courseId);
    title = `${facts?.title ?? 'Course'}${request.topic ? `: ${request.topic}` : ''}`;
  }
  // Counted before the session exists, so a refused message leaves no empty session behind.
  await meter(deps, userId, request.mode, courseId, null);
  return createSession(deps.db, {
    userId,
    mode: request.mode,
    courseId,
    topic: request.topic || null,
    title: title.slice(0, 200),
  });
}

async function meter(
  deps: CoachDeps,
  userId: string,
  mode: string,
  courseId: string | null,
  sessionId: string | null,
) {
  const usage = await meterMessage(deps.db, userId, {
    mode,
    ...(courseId ? { course_id: courseId } : {}),
    ...(sessionId ? { session_id: sessionId } : {}),
  });
  if (!usage.allowed) {
    throw new CoachError(
      429,
      'quota_exceeded',
      usage.message ?? 'You have used all your coach messages of this month.',
    );
  }
}

async function judge(
  deps: CoachDeps,
  session: SessionRow,
  target: NonNullable<ReturnType<typeof answerTarget>>,
  message: string,
): Promise<Judgement> {
  const key = target.basic ?? target.question;
  const exact = judgeExactly(key, message, target.basic ? [] : target.question.misconceptions);
  if (exact) return exact;
  if (key.type !== 'short_text') throw new Error('only short text reaches the evaluator');
  return deps.evaluate(
    {
      question: key.prompt,
      referenceAnswer: key.answer.text,
      keyPoints: target.basic ? [] : target.question.keyPoints,
      answer: message,
    },
    { ai: deps.ai, route: modelRoute(session.machine.mode) },
  );
}

/** A decided and stored turn; `finish` has a configured model word it. */
export interface Turn {
  answer: ChatResponse;
  /**
   * The final answer. With a model for the session's route, its words (passed to `onText` as
   * they arrive) replace the offline reply; `streamed` says whether `onText` was called.
   */
  finish(onText?: (text: string) => Promise<void>): Promise<{
    answer: ChatResponse;
    streamed: boolean;
  }>;
}

interface Decided {
  answer: ChatResponse;
  session: SessionRow;
  messageId: string;
  message: string;
  hits: KnowledgeHit[] | null;
}

async function decide(deps: CoachDeps, session: SessionRow, message: string): Promise<Decided> {
  if (session.mode === 'general') {
    const hits = await searchKnowledge(deps.db, session.user_id, message, session.course_id);
    const reply = knowledgeReply(hits);
    const machine = {
      ...session.machine,
      turn: session.machine.turn + 1,
      replies: [...session.machine.replies, digest(reply)],
    };
    const messageId = await saveTurn(deps.db, {
      session,
      message,
      reply,
      machine,
      log: [
        {
          questionId: null,
          approach: 'knowledge_answer',
          move: hits[0] ? `${hits[0].kind}:${hits[0].href ?? hits[0].id}` : 'unknown',
          answer: null,
          verdict: null,
        },
      ],
      engine: OFFLINE_ENGINE.label,
    });
    return {
      session,
      message,
      messageId,
      hits,
      answer: {
        session_id: session.id,
        mode: 'general',
        state: 'new_question',
        offer: null,
        reply,
        engine: OFFLINE_ENGINE,
      },
    };
  }

  const courseId = session.course_id!;
  // A course the learner has since left (dropped, or barred from its organization) stops here.
  if (!(await mayStudy(deps.db, session.user_id, courseId))) {
    throw new CoachError(403, 'not_enrolled', 'You are no longer enrolled in this course.');
  }
  const [pool, facts, history] = await Promise.all([
    loadQuestions(deps.db, courseId, session.topic),
    courseFacts(deps.db, courseId),
    loadHistory(deps.db, session.id),
  ]);
  const state = session.machine;
  const intent = detectIntent(message, state.offer !== null);
  let judgement: Judgement | undefined;
  if (needsJudgement(state, intent)) {
    const target = answerTarget(state, pool);
    if (target) judgement = await judge(deps, session, target, message);
  }
  const result = advance(
    state,
    { message, intent, judgement },
    { pool, threshold: facts?.threshold ?? 3, history },
  );
  const messageId = await saveTurn(deps.db, {
    session,
    message,
    reply: result.reply,
    machine: result.state,
    log: result.log,
    engine: OFFLINE_ENGINE.label,
  });
  return {
    session,
    message,
    messageId,
    hits: null,
    answer: {
      session_id: session.id,
      mode: result.state.mode,
      state: result.state.state,
      offer: result.state.offer,
      reply: result.reply,
      ...(result.questionId ? { question_id: result.questionId } : {}),
      engine: OFFLINE_ENGINE,
    },
  };
}

/** Decides and stores one turn for the signed-in learner `userId` (see the file's comment). */
export async function beginTurn(
  deps: CoachDeps,
  userId: string,
  request: ChatRequest,
): Promise<Turn> {
  let session = await openSession(deps, userId, request);
  const message = request.message.trim();
  let decided: Decided | undefined;
  for (let attempt = 1; !decided; attempt += 1) {
    try {
      decided = await decide(deps, session, message);
    } catch (error) {
      if (!(error instanceof SessionMovedOnError)) throw error;
      if (attempt >= MAX_ATTEMPTS) {
        throw new CoachError(
          409,
          'session_busy',
          'The coach is still answering your other messages in this session. Send this one again in a moment.',
        );
      }
      const newer = await loadSession(deps.db, userId, session.id);
      if (!newer) throw new CoachError(404, 'session_not_found', 'This session was deleted.');
      session = newer;
    }
  }
  const done = decided;
  return {
    answer: done.answer,
    finish: (onText) => wordWithModel(deps, done, onText),
  };
}

/** The decided turn worded by the route's model, when one is configured (see the file's comment). */
async function wordWithModel(
  deps: CoachDeps,
  decided: Decided,
  onText?: (text: string) => Promise<void>,
): Promise<{ answer: ChatResponse; streamed: boolean }> {
  const route = modelRoute(decided.answer.mode);
  if (!deps.ai.configured(route)) return { answer: decided.answer, streamed: false };
  const request =
    decided.hits !== null
      ? generalRequest(decided.message, decided.hits)
      : tutorRequest(
          await loadRecentMessages(deps.db, decided.session.id, decided.messageId),
          decided.message,
          decided.answer.reply,
        );
  let streamed = false;
  let text = '';
  let engine: ChatEngine | undefined;
  try {
    const stream = await deps.ai.stream({ route, ...request, maxOutputTokens: 800 });
    engine = { kind: 'model', label: stream.engine.label };
    for await (const piece of stream.textStream) {
      text += piece;
      if (onText) {
        streamed = true;
        await onText(piece);
      }
    }
  } catch {
    // Every model failed before a word (AiFailedError), one broke off mid-reply, or the
    // learner left: the turn is stored already, and its offline reply stands (the page replaces
    // partial words with the final event's reply).
    return { answer: decided.answer, streamed };
  }
  text = text.trim();
  // An empty reply, or one the session has heard before, is not sent: the plan's stands.
  if (!engine || !text || decided.session.machine.replies.includes(digest(text))) {
    return { answer: decided.answer, streamed };
  }
  await replaceReply(deps.db, decided.session.id, decided.messageId, text, engine.label);
  await appendReplyDigest(deps.db, decided.session.id, digest(text));
  return { answer: { ...decided.answer, reply: text, engine }, streamed };
}
