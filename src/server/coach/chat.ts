/**
 * One turn of the study coach: the caller's session loaded (or started), the message read for
 * intents, an answer judged (options and numbers exactly, short text by the answer evaluator),
 * the state machine advanced, and the turn stored. General Knowledge mode answers from the
 * course knowledge base instead. HTTP lives in functions/ai-study-chat.ts.
 */
import type { ChatEngine, ChatRequest, ChatResponse } from '../../common/coach-chat';
import type { Evaluation } from '../../common/coach';
import type { Database } from '../db/types';
import { type Judgement, judgeExactly } from './bank';
import type { EvaluationInput } from './evaluate';
import { detectIntent } from './intents';
import { knowledgeReply, searchKnowledge } from './knowledge-base';
import {
  courseFacts,
  createSession,
  loadHistory,
  loadQuestions,
  loadSession,
  mayStudy,
  saveTurn,
  type SessionRow,
} from './sessions';
import { advance, answerTarget, needsJudgement } from './state-machine';

/** The answer evaluator (evaluate.ts's `evaluateAnswer`, or a stand-in in tests). */
export type EvaluateAnswer = (input: EvaluationInput) => Promise<Evaluation>;

export class CoachError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 429,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface CoachDeps {
  db: Database;
  evaluate: EvaluateAnswer;
}

export const OFFLINE_ENGINE: ChatEngine = { kind: 'offline', label: 'Built-in offline coach' };

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
  return createSession(deps.db, {
    userId,
    mode: request.mode,
    courseId,
    topic: request.topic || null,
    title: title.slice(0, 200),
  });
}

async function judge(
  deps: CoachDeps,
  target: NonNullable<ReturnType<typeof answerTarget>>,
  message: string,
): Promise<Judgement> {
  const key = target.basic ?? target.question;
  const exact = judgeExactly(key, message, target.basic ? [] : target.question.misconceptions);
  if (exact) return exact;
  if (key.type !== 'short_text') throw new Error('only short text reaches the evaluator');
  return deps.evaluate({
    question: key.prompt,
    referenceAnswer: key.answer.text,
    keyPoints: target.basic ? [] : target.question.keyPoints,
    answer: message,
  });
}

/** Runs one turn for the signed-in learner `userId`. */
export async function chatTurn(
  deps: CoachDeps,
  userId: string,
  request: ChatRequest,
): Promise<ChatResponse> {
  const session = await openSession(deps, userId, request);
  const message = request.message.trim();

  if (session.mode === 'general') {
    const hits = await searchKnowledge(deps.db, userId, message, session.course_id);
    const reply = knowledgeReply(hits);
    const machine = { ...session.machine, turn: session.machine.turn + 1 };
    await saveTurn(deps.db, {
      session,
      message,
      reply,
      machine,
      log: [
        {
          questionId: null,
          approach: 'knowledge_answer',
          move: hits[0] ? `${hits[0].kind}:${hits[0].href}` : 'unknown',
          answer: null,
          verdict: null,
        },
      ],
      engine: OFFLINE_ENGINE.label,
    });
    return {
      session_id: session.id,
      mode: 'general',
      state: 'new_question',
      offer: null,
      reply,
      engine: OFFLINE_ENGINE,
    };
  }

  const courseId = session.course_id!;
  // A course the learner has since left (dropped, or barred from its organization) stops here.
  if (!(await mayStudy(deps.db, userId, courseId))) {
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
    if (target) judgement = await judge(deps, target, message);
  }
  const result = advance(
    state,
    { message, intent, judgement },
    { pool, threshold: facts?.threshold ?? 3, history },
  );
  await saveTurn(deps.db, {
    session,
    message,
    reply: result.reply,
    machine: result.state,
    log: result.log,
    engine: OFFLINE_ENGINE.label,
  });
  return {
    session_id: session.id,
    mode: result.state.mode,
    state: result.state.state,
    offer: result.state.offer,
    reply: result.reply,
    ...(result.questionId ? { question_id: result.questionId } : {}),
    engine: OFFLINE_ENGINE,
  };
}
