/**
 * The coach's storage (migration 0520): sessions, their messages and the teaching-history
 * log, and what a turn reads around them (the course's bank questions, the organization's
 * struggle threshold, whether the learner may study the course). The chat function is the
 * only writer; it has checked the caller owns the session before it calls these.
 */
import type { CoachMode } from '../../common/coach-chat';
import type { Database, Queryable } from '../db/types';
import type { BankQuestion, BasicQuestion } from './bank';
import {
  DEFAULT_STRUGGLE_THRESHOLD,
  type HistoryEntry,
  initialState,
  type MachineState,
} from './state-machine';

export interface SessionRow {
  id: string;
  user_id: string;
  mode: CoachMode;
  course_id: string | null;
  topic: string | null;
  machine: MachineState;
}

/** The caller's session, or undefined (also for another user's id: no difference is shown). */
export async function loadSession(
  db: Queryable,
  userId: string,
  sessionId: string,
): Promise<SessionRow | undefined> {
  const { rows } = await db.query<Record<string, unknown>>(
    `select id, user_id, mode, course_id, topic, machine from public.chat_sessions
      where id = $1 and user_id = $2`,
    [sessionId, userId],
  );
  const row = rows[0];
  if (!row) return undefined;
  const mode = row.mode as CoachMode;
  const stored = row.machine as Partial<MachineState>;
  return {
    id: row.id as string,
    user_id: row.user_id as string,
    mode,
    course_id: (row.course_id as string | null) ?? null,
    topic: (row.topic as string | null) ?? null,
    machine: { ...initialState(mode), ...stored },
  };
}

export async function createSession(
  db: Queryable,
  input: {
    userId: string;
    mode: CoachMode;
    courseId: string | null;
    topic: string | null;
    title: string;
  },
): Promise<SessionRow> {
  const machine = initialState(input.mode);
  const { rows } = await db.query<{ id: string }>(
    `insert into public.chat_sessions (user_id, mode, course_id, topic, title, machine)
     values ($1, $2, $3, $4, $5, $6) returning id`,
    [input.userId, input.mode, input.courseId, input.topic, input.title, JSON.stringify(machine)],
  );
  return {
    id: rows[0]!.id,
    user_id: input.userId,
    mode: input.mode,
    course_id: input.courseId,
    topic: input.topic,
    machine,
  };
}

export async function loadHistory(db: Queryable, sessionId: string): Promise<HistoryEntry[]> {
  const { rows } = await db.query<{
    question_id: string | null;
    approach: string;
    move: string | null;
    learner_answer: string | null;
    verdict: HistoryEntry['verdict'];
  }>(
    `select question_id, approach, move, learner_answer, verdict
       from public.coach_teaching_log where session_id = $1 order by id`,
    [sessionId],
  );
  return rows.map((r) => ({
    questionId: r.question_id,
    approach: r.approach,
    move: r.move,
    answer: r.learner_answer,
    verdict: r.verdict,
  }));
}

export interface TurnRecord {
  session: SessionRow;
  message: string;
  reply: string;
  machine: MachineState;
  log: readonly HistoryEntry[];
  engine: string;
}

/** Another turn of the session was saved after this one's state was read. */
export class SessionMovedOnError extends Error {
  constructor() {
    super('the session moved on while this turn was decided');
    this.name = 'SessionMovedOnError';
  }
}

/**
 * One turn stored at once: the session's new state, both messages and the log's new rows.
 * The session row is updated only if its turn counter is still the one this turn was decided
 * on (the row lock orders concurrent saves); otherwise nothing is stored and
 * `SessionMovedOnError` asks the caller to decide again on the newer state. Answers the coach
 * message's id.
 */
export async function saveTurn(db: Database, turn: TurnRecord): Promise<string> {
  const { session, machine } = turn;
  return db.transaction(async (tx) => {
    const moved = await tx.query(
      `update public.chat_sessions
          set mode = $2, state = $3, offer = $4, question_id = $5, machine = $6, updated_at = now()
        where id = $1 and coalesce((machine ->> 'turn')::int, 0) = $7`,
      [
        session.id,
        machine.mode,
        machine.state,
        machine.offer,
        machine.questionId,
        JSON.stringify(machine),
        session.machine.turn,
      ],
    );
    if (moved.rowCount === 0) throw new SessionMovedOnError();
    await tx.query(
      `insert into public.chat_messages (session_id, user_id, sender, content)
       values ($1, $2, 'learner', $3)`,
      [session.id, session.user_id, turn.message],
    );
    const { rows } = await tx.query<{ id: string }>(
      `insert into public.chat_messages
         (session_id, user_id, sender, content, state, offer, question_id, engine)
       values ($1, $2, 'coach', $3, $4, $5, $6, $7) returning id::text`,
      [
        session.id,
        session.user_id,
        turn.reply,
        machine.state,
        machine.offer,
        machine.questionId,
        turn.engine,
      ],
    );
    if (turn.log.length > 0) {
      await tx.query(
        `insert into public.coach_teaching_log
           (session_id, user_id, course_id, question_id, approach, move, learner_answer, verdict)
         select $1, $2, $3, l.question_id, l.approach, l.move, l.learner_answer, l.verdict
           from jsonb_to_recordset($4::jsonb) as l(
             question_id uuid, approach text, move text, learner_answer text, verdict text)`,
        [
          session.id,
          session.user_id,
          session.course_id,
          JSON.stringify(
            turn.log.map((h) => ({
              question_id: h.questionId,
              approach: h.approach,
              move: h.move,
              learner_answer: h.answer,
              verdict: h.verdict,
            })),
          ),
        ],
      );
    }
    return rows[0]!.id;
  });
}

/** A coach reply worded by a model replaces the offline one it was given. */
export async function replaceReply(
  db: Queryable,
  sessionId: string,
  messageId: string,
  reply: string,
  engine: string,
): Promise<void> {
  await db.query(
    `update public.chat_messages set content = $3, engine = $4
      where session_id = $1 and id = $2::bigint and sender = 'coach'`,
    [sessionId, messageId, reply.slice(0, 60_000), engine.slice(0, 200)],
  );
}

/** Remembers a model's reply as sent, without touching the turn counter. */
export async function appendReplyDigest(
  db: Queryable,
  sessionId: string,
  replyDigest: string,
): Promise<void> {
  await db.query(
    `update public.chat_sessions
        set machine = jsonb_set(machine, '{replies}',
              coalesce(machine -> 'replies', '[]'::jsonb) || to_jsonb($2::text))
      where id = $1`,
    [sessionId, replyDigest],
  );
}

/**
 * The session's messages before this turn (whose coach message is `coachMessageId`), oldest
 * first, at most six.
 */
export async function loadRecentMessages(
  db: Queryable,
  sessionId: string,
  coachMessageId: string,
): Promise<Array<{ sender: 'learner' | 'coach'; content: string }>> {
  const { rows } = await db.query<{ sender: 'learner' | 'coach'; content: string }>(
    `select sender, content from public.chat_messages
      where session_id = $1 and id < $2::bigint
      order by id desc limit 7`,
    [sessionId, coachMessageId],
  );
  // The latest is this turn's own message, which the caller sends with the plan.
  return rows.slice(1).reverse();
}

export interface Usage {
  allowed: boolean;
  message?: string;
}

/** Counts one coach message against the learner's monthly allowance (decision 0202). */
export async function meterMessage(
  db: Database,
  userId: string,
  metadata: Record<string, string>,
): Promise<Usage> {
  const { rows } = await db.queryAsRole<{ usage: Usage }>(
    { role: 'authenticated', sub: userId },
    `select public.track_usage($1, 'coach_message', 1, $2::jsonb) as usage`,
    [userId, JSON.stringify(metadata)],
  );
  return rows[0]!.usage;
}

/** Whether the user may study the course: enrolled, or teaching it (personal courses too). */
export async function mayStudy(db: Queryable, userId: string, courseId: string): Promise<boolean> {
  const { rows } = await db.query<{ ok: boolean }>(
    'select learning.teaches($1, $2) or learning.enrolled($1, $2) as ok',
    [userId, courseId],
  );
  return rows[0]?.ok === true;
}

export interface CourseFacts {
  title: string;
  threshold: number;
}

export async function courseFacts(
  db: Queryable,
  courseId: string,
): Promise<CourseFacts | undefined> {
  const { rows } = await db.query<{ title: string; threshold: number | null }>(
    `select c.title, o.struggle_threshold::int as threshold
       from public.courses c left join public.organizations o on o.id = c.organization_id
      where c.id = $1`,
    [courseId],
  );
  const row = rows[0];
  return row
    ? { title: row.title, threshold: row.threshold ?? DEFAULT_STRUGGLE_THRESHOLD }
    : undefined;
}

/**
 * The course's bank questions in teaching order (module, then difficulty), narrowed to a
 * topic when one is named: a module (its id, slug or title) or a prerequisite concept.
 */
export async function loadQuestions(
  db: Queryable,
  courseId: string,
  topic: string | null,
): Promise<BankQuestion[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    `select q.id, q.type, q.prompt, q.choices, q.answer, q.key_points, q.hints, q.worked_example,
            q.misconceptions, q.prerequisite, m.title as module_title
       from public.questions q join public.modules m on m.id = q.module_id
      where q.course_id = $1
        and ($2::text is null
             or m.id::text = $2 or m.slug = $2 or lower(m.title) = lower($2)
             or lower(q.prerequisite ->> 'concept') = lower($2))
      order by m.position, q.difficulty, q.slug`,
    [courseId, topic],
  );
  return rows.map((row) => {
    const common = {
      id: row.id as string,
      prompt: row.prompt as string,
      moduleTitle: row.module_title as string,
      keyPoints: row.key_points as string[],
      hints: row.hints as string[],
      workedExample: row.worked_example as string,
      misconceptions: row.misconceptions as BankQuestion['misconceptions'],
      prerequisite: row.prerequisite as {
        concept: string;
        refresher: string;
        questions: BasicQuestion[];
      },
    };
    return { ...common, ...answerKey(row) } as BankQuestion;
  });
}

function answerKey(row: Record<string, unknown>) {
  switch (row.type) {
    case 'multiple_choice':
      return { type: 'multiple_choice', choices: row.choices, answer: row.answer };
    case 'numeric':
      return { type: 'numeric', answer: row.answer };
    default:
      return { type: 'short_text', answer: row.answer };
  }
}
