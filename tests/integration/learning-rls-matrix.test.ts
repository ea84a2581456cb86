/**
 * The role matrix of issue 11: for every learning table, every actor tries select, insert,
 * update and delete on organization A's rows through supabase-js. The expected matrix below
 * is the one in docs/decisions/0100-learning-data-model.md; a cell lists the actors whose
 * attempt took effect (checked with the service role, not by trusting the response).
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import {
  actors,
  buildLearningFixture,
  flashcardReviewRow,
  questionRow,
  unique,
  type Actor,
  type LearningFixture,
} from './learning-fixture';

type Row = Record<string, unknown>;
type Op = 'select' | 'insert' | 'update' | 'delete';

interface TableCase {
  table: string;
  /** The matrix row, when one table has two (default: the table's name). */
  name?: string;
  /** The organization A row that select and update aim at. */
  target(f: LearningFixture): Row;
  /** A harmless change for update, and how to put the row back. */
  change: Row;
  /** The row an actor tries to insert, and the filter that finds it afterwards. */
  insert(f: LearningFixture, actor: Actor): { row: Row; find: Row };
  /** A fresh row the service role creates for each delete attempt. */
  disposable(f: LearningFixture): Row;
  /** Makes the delete attempt's row when the service role may not insert one (append-only logs). */
  makeDisposable?(f: LearningFixture): Promise<Row>;
  /** Makes room for the insert (and puts things back after it), when the row must not exist. */
  aroundInsert?(f: LearningFixture, attempt: () => Promise<boolean>): Promise<boolean>;
  /** The columns select reads, when some (a secret) are not readable at all (default `*`). */
  columns?: string;
  /** One row per key (the target): delete aims at the target itself and puts it back. */
  deletesTarget?: boolean;
}

const ids = (row: Row, keys: string[]) => Object.fromEntries(keys.map((k) => [k, row[k]]));

/** Tables keyed by `id`: the inserted row carries a fresh id, which finds it again. */
function byId(row: Row): { row: Row; find: Row } {
  const id = randomUUID();
  return { row: { id, ...row }, find: { id } };
}

/** The learner's own knowledge-base files (kb_files, decision 0221), made in beforeAll. */
const matrixKb = { document: '', spare: '', path: '' };

async function seedKnowledgeBase(f: LearningFixture, server: TestServer): Promise<void> {
  const folder = f.users.learner.id;
  const names = [`${folder}/notes.md`, `${folder}/spare.md`];
  for (const name of names) {
    const { error } = await f.service.storage
      .from('kb_files')
      .upload(name, new Blob(['# Notes\n\nOsmosis moves water.'], { type: 'text/markdown' }), {
        contentType: 'text/markdown',
      });
    if (error) throw new Error(`kb_files fixture: ${error.message}`);
  }
  const { rows } = await server.deps.db.query<{ id: string; name: string }>(
    `select id, name from storage.objects where bucket_id = 'kb_files' and name = any($1)`,
    [names],
  );
  matrixKb.document = rows.find((r) => r.name === names[0])!.id;
  matrixKb.spare = rows.find((r) => r.name === names[1])!.id;
  matrixKb.path = names[0]!;
  const { error } = await f.service.from('kb_documents').insert({
    object_id: matrixKb.document,
    user_id: folder,
    file_path: names[0],
    kind: 'text',
    title: 'Notes',
    section_count: 1,
    text_chars: 27,
  });
  if (error) throw new Error(`kb_documents fixture: ${error.message}`);
}

/** The coupon the learner redeemed (made in beforeAll; the coupon rows' cases name it). */
const matrixCoupon = { id: '' };

/** Organization A's subscription, the learner's own, and a coupon the learner redeemed. */
async function seedBilling(f: LearningFixture): Promise<void> {
  const subscriptions: Row[] = [
    { organization_id: f.orgA, tier: 'enterprise', status: 'active', source: 'coupon' },
    { user_id: f.users.learner.id, tier: 'pro', status: 'active', source: 'coupon' },
  ];
  for (const row of subscriptions) {
    const { error } = await f.service.from('subscribers').insert(row);
    if (error) throw new Error(`subscribers fixture: ${error.message}`);
  }
  const { data, error } = await f.service
    .from('coupons')
    .insert({ code: 'MATRIX-COUPON', tier: 'free', organization_id: f.orgA, max_redemptions: 5 })
    .select('id')
    .single();
  if (error) throw new Error(`coupons fixture: ${error.message}`);
  matrixCoupon.id = (data as { id: string }).id;
  const redeemed = await f.service
    .from('coupon_redemptions')
    .insert({ coupon_id: matrixCoupon.id, user_id: f.users.learner.id, purpose: 'sign_up' });
  if (redeemed.error) throw new Error(`coupon_redemptions fixture: ${redeemed.error.message}`);
}

/** Consent, a data request and usage for the learner (decisions 0202, 0410, 0411). */
const matrixRequest = { id: '' };
/** LE Adapt's outputs of the fixture's job (db/app 0820), made in beforeAll. */
const matrixAdapt = { spareJob: '', publication: '', delivery: '' };
/** A reviewer's edited quiz (db/app 0823): one short answer. */
const matrixQuiz = [
  {
    kind: 'short_answer',
    id: 'why-light',
    sectionId: null,
    prompt: 'Why do plants need light?',
    referenceAnswer: 'Light provides the energy.',
    keyPoints: ['energy'],
    difficulty: 2,
  },
];

async function seedAdaptOutputs(f: LearningFixture): Promise<void> {
  const instructor = f.users.instructor.id;
  const insert = async (table: string, row: Row) => {
    const { data, error } = await f.service.from(table).insert(row).select().single();
    if (error) throw new Error(`${table} fixture: ${error.message}`);
    return data as Row;
  };
  matrixAdapt.spareJob = (
    await insert('adapt_jobs', {
      owner_id: instructor,
      organization_id: f.orgA,
      title: 'Spare job for exports',
      source_format: 'txt',
    })
  ).id as string;
  await insert('adapt_exports', { job_id: f.adaptJob, requested_by: instructor });
  await insert('adapt_quiz_reviews', {
    job_id: f.adaptJob,
    questions: matrixQuiz,
    version: 1,
    edited_by: instructor,
  });
  matrixAdapt.publication = (
    await insert('adapt_publications', {
      job_id: f.adaptJob,
      course_id: f.course,
      lesson_id: f.lesson,
      questions: 3,
      published_by: instructor,
    })
  ).id as string;
  await insert('adapt_webhook_endpoints', {
    organization_id: f.orgA,
    url: 'https://lms.example.edu/hook',
    secret: 'whsec_matrix-secret-0000000000000',
  });
  matrixAdapt.delivery = (
    await insert('adapt_webhook_deliveries', {
      organization_id: f.orgA,
      job_id: f.adaptJob,
      url: 'https://lms.example.edu/hook',
      payload: { event: 'lesson.exported' },
      requested_by: instructor,
    })
  ).id as string;
  await insert('adapt_webhook_attempts', {
    delivery_id: matrixAdapt.delivery,
    attempt: 1,
    response_code: 503,
    duration_ms: 12,
  });
}

async function seedPrivacy(f: LearningFixture): Promise<void> {
  const learner = f.users.learner.id;
  const rows: [string, Row][] = [
    [
      'user_consent',
      {
        user_id: learner,
        category: 'analytics',
        granted: false,
        policy_version: '2026-11-23',
        source: 'banner',
      },
    ],
    [
      'user_consent_history',
      {
        user_id: learner,
        category: 'analytics',
        granted: false,
        policy_version: '2026-11-23',
        source: 'banner',
      },
    ],
    ['usage_events', { user_id: learner, feature_type: 'coach_message', amount: 1 }],
  ];
  for (const [table, row] of rows) {
    const { error } = await f.service.from(table).insert(row);
    if (error) throw new Error(`${table} fixture: ${error.message}`);
  }
  const quota = await f.service.from('user_quotas').upsert({
    user_id: learner,
    feature_type: 'coach_message',
    tier: 'free',
    monthly_limit: 500,
    used: 3,
    period_start: '2026-11-01T00:00:00Z',
    resets_at: '2026-12-01T00:00:00Z',
  });
  if (quota.error) throw new Error(`user_quotas fixture: ${quota.error.message}`);
  const { data, error } = await f.service
    .from('data_subject_requests')
    .insert({ user_id: learner, request_type: 'access' })
    .select('id')
    .single();
  if (error) throw new Error(`data_subject_requests fixture: ${error.message}`);
  matrixRequest.id = (data as { id: string }).id;
}

/**
 * A learner's IEP document and one HIPAA access log row about it (decision 0422): the row of a
 * real read (the org admin opens the document), as no API role may call log_hipaa_access
 * (decision 0435).
 */
const matrixIep = { document: '', path: '', logId: 0 };
const iepPurpose = "Planning the learner's exam accommodations";
async function logIepAccess(f: LearningFixture): Promise<Row> {
  const opened = await f.client('org_admin').rpc('open_iep_document', {
    document: matrixIep.document,
    purpose: iepPurpose,
  });
  if (opened.error) throw new Error(`hipaa_audit_log fixture: ${opened.error.message}`);
  const { data, error } = await f.service
    .from('hipaa_audit_log')
    .select('id')
    .eq('document_id', matrixIep.document)
    .eq('user_id', f.users.org_admin.id)
    .eq('action', 'view')
    .order('id', { ascending: false })
    .limit(1)
    .single();
  if (error) throw new Error(`hipaa_audit_log fixture: ${error.message}`);
  return { id: (data as { id: number }).id };
}
async function seedIep(f: LearningFixture): Promise<void> {
  matrixIep.document = randomUUID();
  matrixIep.path = `${f.orgA}/${f.users.learner.id}/${matrixIep.document}`;
  const stored = await f.service.storage
    .from('iep-documents')
    .upload(matrixIep.path, new Blob(['IEP'], { type: 'text/plain' }), {
      contentType: 'text/plain',
    });
  if (stored.error) throw new Error(`iep-documents fixture: ${stored.error.message}`);
  const { error } = await f.service.from('iep_documents').insert({
    id: matrixIep.document,
    organization_id: f.orgA,
    learner_id: f.users.learner.id,
    title: 'IEP',
    file_name: 'iep.txt',
    content_type: 'text/plain',
    size_bytes: 3,
    object_path: matrixIep.path,
  });
  if (error) throw new Error(`iep_documents fixture: ${error.message}`);
  matrixIep.logId = (await logIepAccess(f)).id as number;
}

const cases: TableCase[] = [
  {
    table: 'organizations',
    target: (f) => ({ id: f.orgA }),
    change: { struggle_threshold: 7 },
    insert: () => byId({ name: 'Rogue', slug: unique('rogue') }),
    disposable: () => ({ name: 'Spare', slug: unique('spare') }),
  },
  {
    table: 'boards',
    target: (f) => ({ id: f.boardArts }),
    change: { name: 'Renamed' },
    insert: (f) => byId({ organization_id: f.orgA, name: 'Law', slug: unique('law') }),
    disposable: (f) => ({ organization_id: f.orgA, name: 'Spare', slug: unique('spare') }),
  },
  {
    table: 'memberships',
    target: (f) => ({ user_id: f.users.learner.id, organization_id: f.orgA }),
    change: { active: false },
    insert: (f, actor) =>
      byId({
        user_id: f.users.spare.id,
        organization_id: f.orgA,
        board_id: f.boardArts,
        role: 'learner',
        created_by: actor === 'anon' ? null : f.users[actor].id,
      }),
    disposable: (f) => ({
      user_id: f.users.spare.id,
      organization_id: f.orgA,
      board_id: f.boardArts,
      role: 'learner',
    }),
  },
  {
    table: 'courses',
    target: (f) => ({ id: f.course }),
    change: { title: 'Renamed course' },
    insert: (f) => byId({ organization_id: f.orgA, title: 'Rogue course' }),
    disposable: (f) => ({ organization_id: f.orgA, title: 'Spare course' }),
  },
  {
    table: 'course_boards',
    target: (f) => ({ course_id: f.course, board_id: f.boardArts }),
    change: { board_id: 'science' },
    insert: (f) => {
      const row = { course_id: f.course, board_id: f.boardScience, organization_id: f.orgA };
      return { row, find: ids(row, ['course_id', 'board_id']) };
    },
    disposable: (f) => ({
      course_id: f.course2,
      board_id: f.boardScience,
      organization_id: f.orgA,
    }),
  },
  {
    table: 'course_instructors',
    target: (f) => ({ course_id: f.course, user_id: f.users.instructor.id }),
    change: { user_id: 'board_admin' },
    insert: (f, actor) => {
      const row = {
        course_id: f.course,
        user_id: f.users.board_admin.id,
        added_by: actor === 'anon' ? null : f.users[actor].id,
      };
      return { row, find: ids(row, ['course_id', 'user_id']) };
    },
    disposable: (f) => ({ course_id: f.course, user_id: f.users.board_admin.id }),
  },
  {
    table: 'modules',
    target: (f) => ({ id: f.module }),
    change: { title: 'Renamed module' },
    insert: (f) => byId({ course_id: f.course, position: 90, title: 'Rogue module' }),
    disposable: (f) => ({ course_id: f.course, position: 91, title: 'Spare module' }),
  },
  {
    table: 'lessons',
    target: (f) => ({ id: f.lesson }),
    change: { title: 'Renamed lesson' },
    insert: (f) =>
      byId({
        module_id: f.module,
        course_id: f.course,
        position: 90,
        title: 'Rogue lesson',
        kind: 'markdown',
        body: 'x',
      }),
    disposable: (f) => ({
      module_id: f.module,
      course_id: f.course,
      position: 91,
      title: 'Spare lesson',
      kind: 'video',
      video_url: 'https://video.example/lungs',
    }),
  },
  {
    table: 'questions',
    target: (f) => ({ id: f.question }),
    change: { difficulty: 3 },
    insert: (f) => byId(questionRow(f.course, f.module, unique('rogue'))),
    disposable: (f) => questionRow(f.course, f.module, unique('spare')),
  },
  {
    table: 'assessments',
    target: (f) => ({ id: f.assessment }),
    change: { title: 'Renamed quiz' },
    insert: (f) => byId({ course_id: f.course, module_id: f.module, title: 'Rogue quiz' }),
    disposable: (f) => ({ course_id: f.course, module_id: f.module, title: 'Spare quiz' }),
  },
  {
    table: 'assessment_questions',
    target: (f) => ({ assessment_id: f.assessment, question_id: f.question }),
    change: { position: 5 },
    insert: (f) => {
      const row = {
        assessment_id: f.assessment,
        question_id: f.question2,
        course_id: f.course,
        position: 2,
      };
      return { row, find: ids(row, ['assessment_id', 'question_id']) };
    },
    disposable: (f) => ({
      assessment_id: f.assessment,
      question_id: f.numericQuestion,
      course_id: f.course,
      position: 3,
    }),
  },
  {
    table: 'assignments',
    target: (f) => ({ id: f.assignment }),
    change: { title: 'Renamed assignment' },
    insert: (f, actor) =>
      byId({
        course_id: f.course,
        lesson_id: f.lesson,
        title: 'Rogue assignment',
        due_at: '2030-01-01T00:00:00Z',
        assigned_by: actor === 'anon' ? null : f.users[actor].id,
      }),
    disposable: (f) => ({
      course_id: f.course,
      assessment_id: f.assessment,
      title: 'Spare assignment',
      due_at: '2030-01-01T00:00:00Z',
    }),
  },
  {
    table: 'enrollments',
    target: (f) => ({ user_id: f.users.learner.id, course_id: f.course }),
    change: { status: 'dropped' },
    // Self-enrolment in a published course of organization A that nobody is enrolled in.
    insert: (f, actor) => ({
      row: { user_id: actor === 'anon' ? null : f.users[actor].id, course_id: f.course2 },
      find: { user_id: actor === 'anon' ? randomUUID() : f.users[actor].id, course_id: f.course2 },
    }),
    disposable: (f) => ({ user_id: f.users.learner.id, course_id: f.course2 }),
  },
  {
    table: 'lesson_progress',
    target: (f) => ({ user_id: f.users.learner.id, lesson_id: f.lesson }),
    // Within what db/app 0430 lets a learner add at once (the time since the last write + 60 s).
    change: { time_spent_seconds: 30 },
    // Progress of one's own on a lesson of the course.
    insert: (f, actor) => ({
      row: { lesson_id: f.lesson2, course_id: f.course, status: 'in_progress' },
      find: { user_id: actor === 'anon' ? randomUUID() : f.users[actor].id, lesson_id: f.lesson2 },
    }),
    disposable: (f) => ({
      user_id: f.users.learner.id,
      lesson_id: f.lesson2,
      course_id: f.course,
      status: 'in_progress',
    }),
  },
  {
    table: 'assessment_attempts',
    target: (f) => ({ id: f.attempt }),
    change: { feedback: 'Forged feedback' },
    insert: (f, actor) =>
      byId({
        assessment_id: f.assessment,
        course_id: f.course,
        user_id: actor === 'anon' ? null : f.users[actor].id,
        attempt_number: 9,
        answers: {},
        verdicts: [],
        status: 'graded',
        score: 100,
      }),
    disposable: (f) => ({
      assessment_id: f.assessment,
      course_id: f.course,
      user_id: f.users.learner.id,
      attempt_number: 2 + Math.floor(Math.random() * 1000),
      answers: {},
      verdicts: [],
      status: 'graded',
    }),
  },
  {
    table: 'course_posts',
    target: (f) => ({ id: f.post }),
    change: { body: 'Edited' },
    insert: (f) => {
      const body = unique('post');
      return { row: { course_id: f.course, body }, find: { body } };
    },
    disposable: (f) => ({ course_id: f.course, author_id: f.users.learner.id, body: 'Spare' }),
  },
  {
    table: 'goals',
    target: (f) => ({ id: f.goal }),
    change: { title: 'Renamed goal' },
    // A goal for A's learner: their own for the learner, one they set for everyone else.
    insert: (f) =>
      byId({
        user_id: f.users.learner.id,
        course_id: f.course,
        kind: 'complete_course',
        title: 'Rogue goal',
      }),
    disposable: (f) => ({
      user_id: f.users.learner.id,
      course_id: f.course,
      set_by: f.users.instructor.id,
      kind: 'complete_course',
      title: 'Spare goal',
    }),
  },
  {
    table: 'goals',
    name: "goals (the learner's own)",
    target: (f) => ({ id: f.ownGoal }),
    change: { title: 'Renamed own goal' },
    insert: (f) =>
      byId({
        user_id: f.users.learner.id,
        course_id: f.course,
        kind: 'complete_course',
        title: 'Rogue own goal',
      }),
    disposable: (f) => ({
      user_id: f.users.learner.id,
      course_id: f.course,
      set_by: f.users.learner.id,
      kind: 'complete_course',
      title: 'Spare own goal',
    }),
  },
  {
    table: 'highlights',
    target: (f) => ({ id: f.highlight }),
    change: { colour: 'green' },
    // A highlight of one's own in a lesson of the course.
    insert: (f) =>
      byId({
        course_id: f.course,
        lesson_id: f.lesson2,
        locator: { kind: 'pdf', page: 2, start: 4, end: 9 },
        text: 'Rogue highlight',
      }),
    disposable: (f) => ({
      user_id: f.users.learner.id,
      course_id: f.course,
      lesson_id: f.lesson,
      locator: { kind: 'epub', cfi: 'epubcfi(/6/4!/4/2,/1:0,/1:5)', chapter: 2 },
      text: 'Spare highlight',
    }),
  },
  {
    table: 'kb_documents',
    target: () => ({ object_id: matrixKb.document }),
    change: { title: 'Renamed notes' },
    insert: (f) => {
      const filePath = `${f.users.learner.id}/${unique('rogue')}.md`;
      return {
        row: {
          object_id: matrixKb.spare,
          user_id: f.users.learner.id,
          file_path: filePath,
          kind: 'text',
          title: 'Rogue',
          section_count: 1,
          text_chars: 1,
        },
        find: { file_path: filePath },
      };
    },
    disposable: (f) => ({
      object_id: matrixKb.spare,
      user_id: f.users.learner.id,
      file_path: `${f.users.learner.id}/spare.md`,
      kind: 'text',
      title: 'Spare',
      section_count: 1,
      text_chars: 1,
    }),
  },
  {
    table: 'chat_sessions',
    target: (f) => ({ id: f.chatSession }),
    change: { title: 'Renamed session' },
    insert: (f) =>
      byId({ user_id: f.users.learner.id, mode: 'study', course_id: f.course, title: 'Rogue' }),
    disposable: (f) => ({
      user_id: f.users.learner.id,
      mode: 'study',
      course_id: f.course,
      title: 'Spare session',
    }),
  },
  {
    table: 'chat_messages',
    target: (f) => ({ id: f.chatMessage }),
    change: { content: 'Edited message' },
    insert: (f) => {
      const content = unique('rogue-message');
      return {
        row: { session_id: f.chatSession, user_id: f.users.learner.id, sender: 'coach', content },
        find: { content },
      };
    },
    disposable: (f) => ({
      session_id: f.chatSession,
      user_id: f.users.learner.id,
      sender: 'learner',
      content: 'Spare message',
    }),
  },
  {
    table: 'coach_teaching_log',
    target: (f) => ({ id: f.teachingLogEntry }),
    change: { verdict: 'correct' },
    insert: (f) => {
      const move = unique('rogue-move');
      return {
        row: {
          session_id: f.chatSession,
          user_id: f.users.learner.id,
          course_id: f.course,
          approach: 'hint',
          move,
          verdict: 'correct',
        },
        find: { move },
      };
    },
    disposable: (f) => ({
      session_id: f.chatSession,
      user_id: f.users.learner.id,
      course_id: f.course,
      approach: 'hint',
    }),
  },
  // LE Adapt (decision 0500): reads under RLS, every write through the adapt function.
  {
    table: 'adapt_jobs',
    target: (f) => ({ id: f.adaptJob }),
    change: { title: 'Renamed job' },
    insert: (f, actor) =>
      byId({
        owner_id: actor === 'anon' ? f.users.instructor.id : f.users[actor].id,
        organization_id: f.orgA,
        title: 'Rogue job',
        source_format: 'txt',
      }),
    disposable: (f) => ({
      owner_id: f.users.instructor.id,
      organization_id: f.orgA,
      title: 'Spare job',
      source_format: 'txt',
    }),
  },
  {
    table: 'adapt_job_stages',
    target: (f) => ({ job_id: f.adaptJob, stage: 1 }),
    change: { status: 'done' },
    insert: (f) => {
      const row = { job_id: f.adaptJob, stage: 2, name: 'structure' };
      return { row, find: ids(row, ['job_id', 'stage']) };
    },
    disposable: (f) => ({ job_id: f.adaptJob, stage: 3, name: 'accessible' }),
  },
  // LE Adapt's outputs (decisions 0512–0516): read under RLS; exports, deliveries and attempts
  // are written by the server, publications by adapt.publish_lesson as the caller.
  {
    table: 'adapt_exports',
    target: (f) => ({ job_id: f.adaptJob }),
    change: { status: 'failed' },
    insert: () => ({
      row: { job_id: matrixAdapt.spareJob },
      find: { job_id: matrixAdapt.spareJob },
    }),
    disposable: () => ({ job_id: matrixAdapt.spareJob }),
  },
  // A reviewer's edited quiz: read with the job, written only through adapt.save_quiz.
  {
    table: 'adapt_quiz_reviews',
    target: (f) => ({ job_id: f.adaptJob }),
    change: { version: 9 },
    insert: () => ({
      row: { job_id: matrixAdapt.spareJob, questions: matrixQuiz, version: 1 },
      find: { job_id: matrixAdapt.spareJob },
    }),
    disposable: () => ({ job_id: matrixAdapt.spareJob, questions: matrixQuiz, version: 1 }),
  },
  {
    table: 'adapt_publications',
    target: () => ({ id: matrixAdapt.publication }),
    change: { questions: 7 },
    insert: (f, actor) =>
      byId({
        job_id: f.adaptJob,
        course_id: f.course,
        lesson_id: f.lesson,
        questions: 0,
        published_by: actor === 'anon' ? f.users.instructor.id : f.users[actor].id,
      }),
    disposable: (f) => ({
      job_id: f.adaptJob,
      course_id: f.course,
      lesson_id: f.lesson,
      questions: 0,
      published_by: f.users.instructor.id,
    }),
  },
  {
    table: 'adapt_webhook_endpoints',
    columns: 'organization_id, url, active, events',
    target: (f) => ({ organization_id: f.orgA }),
    change: { url: 'https://lms.example.edu/changed' },
    insert: (f) => ({
      row: {
        organization_id: f.orgA,
        url: 'https://lms.example.edu/rogue',
        secret: 'whsec_rogue-secret-000000000000',
      },
      find: { organization_id: f.orgA, url: 'https://lms.example.edu/rogue' },
    }),
    disposable: () => ({}),
    deletesTarget: true,
    // One endpoint per organization: the insert needs A's to be out of the way.
    async aroundInsert(f, attempt) {
      const { data: saved } = await f.service
        .from('adapt_webhook_endpoints')
        .select('*')
        .eq('organization_id', f.orgA)
        .single();
      await f.service.from('adapt_webhook_endpoints').delete().eq('organization_id', f.orgA);
      try {
        return await attempt();
      } finally {
        await f.service.from('adapt_webhook_endpoints').delete().eq('organization_id', f.orgA);
        await f.service.from('adapt_webhook_endpoints').insert(saved as Row);
      }
    },
  },
  {
    table: 'adapt_webhook_deliveries',
    target: () => ({ id: matrixAdapt.delivery }),
    change: { status: 'failed' },
    insert: (f) =>
      byId({ organization_id: f.orgA, job_id: f.adaptJob, url: 'https://x.example', payload: {} }),
    disposable: (f) => ({
      organization_id: f.orgA,
      job_id: f.adaptJob,
      url: 'https://lms.example.edu/hook',
      payload: {},
      requested_by: f.users.instructor.id,
    }),
  },
  {
    table: 'adapt_webhook_attempts',
    target: () => ({ delivery_id: matrixAdapt.delivery, attempt: 1 }),
    change: { duration_ms: 99 },
    insert: () => {
      const row = { delivery_id: matrixAdapt.delivery, attempt: 2, duration_ms: 1 };
      return { row, find: ids(row, ['delivery_id', 'attempt']) };
    },
    disposable: () => ({ delivery_id: matrixAdapt.delivery, attempt: 3, duration_ms: 1 }),
  },
  // The live hub (decision 0310): the room of organization A's course.
  {
    table: 'live_messages',
    target: (f) => ({ id: f.liveMessage }),
    // Removing a message: the trigger empties it and stamps who removed it.
    change: { body: '' },
    insert: (f) => {
      const body = unique('live chat');
      return {
        row: { course_id: f.course, body },
        find: { course_id: f.course, body },
      };
    },
    disposable: (f) => ({ course_id: f.course, user_id: f.users.learner.id, body: 'spare' }),
  },
  {
    table: 'live_mutes',
    target: (f) => ({ course_id: f.course, user_id: f.users.deactivated.id }),
    change: { user_name: 'Renamed' },
    insert: (f) => {
      const row = { course_id: f.course, user_id: f.users.learner.id };
      return { row, find: row };
    },
    disposable: (f) => ({ course_id: f.course, user_id: f.users.learner.id }),
  },
  {
    table: 'live_questions',
    target: (f) => ({ id: f.liveQuestion }),
    change: { status: 'closed' },
    insert: (f) => {
      const prompt = unique('Ready for the quiz?');
      return {
        row: { course_id: f.course, kind: 'poll', prompt, choices: ['Yes', 'Not yet'] },
        find: { course_id: f.course, prompt },
      };
    },
    // One open question per room: the fixture's poll closes for the attempt.
    async aroundInsert(f, attempt) {
      await f.service
        .from('live_questions')
        .update({ status: 'closed', closed_at: new Date().toISOString() })
        .eq('id', f.liveQuestion);
      const took = await attempt();
      await f.service
        .from('live_questions')
        .update({ status: 'open', closed_at: null })
        .eq('id', f.liveQuestion);
      return took;
    },
    disposable: (f) => ({
      course_id: f.course,
      kind: 'short',
      prompt: 'Spare question',
      status: 'closed',
      closed_at: new Date().toISOString(),
    }),
  },
  {
    table: 'live_answers',
    target: (f) => ({ id: f.liveAnswer }),
    change: { choice: 1 },
    insert: (f, actor) => ({
      row: { question_id: f.liveQuestion, choice: 1 },
      find: {
        question_id: f.liveQuestion,
        user_id: actor === 'anon' ? randomUUID() : f.users[actor].id,
      },
    }),
    // One answer per learner: the learner's own answer steps aside for the attempt.
    async aroundInsert(f, attempt) {
      const { data: saved } = await f.service
        .from('live_answers')
        .select('*')
        .eq('id', f.liveAnswer)
        .single();
      await f.service.from('live_answers').delete().eq('id', f.liveAnswer);
      const took = await attempt();
      await f.service.from('live_answers').insert(saved as Row);
      return took;
    },
    disposable: (f) => ({
      question_id: f.liveQuestion,
      course_id: f.course,
      user_id: f.users.spare.id,
      choice: 0,
    }),
  },
  {
    table: 'live_hands',
    target: (f) => ({ course_id: f.course, user_id: f.users.learner.id }),
    change: { user_name: 'Renamed' },
    insert: (f, actor) => ({
      row: { course_id: f.course },
      find: { course_id: f.course, user_id: actor === 'anon' ? randomUUID() : f.users[actor].id },
    }),
    // The learner's hand is up already: lowered for the attempt, raised again after.
    async aroundInsert(f, attempt) {
      const target = { course_id: f.course, user_id: f.users.learner.id };
      await f.service.from('live_hands').delete().match(target);
      const took = await attempt();
      await f.service.from('live_hands').upsert(target);
      return took;
    },
    disposable: (f) => ({ course_id: f.course, user_id: f.users.deactivated.id }),
  },
  {
    table: 'profiles',
    target: (f) => ({ id: f.users.learner.id }),
    change: { full_name: 'Changed Name' },
    insert: (f) => ({
      row: { id: f.users.spare.id, full_name: 'Inserted' },
      find: { id: f.users.spare.id },
    }),
    // Every account has its profile: take the spare account's away for the attempt.
    async aroundInsert(f, attempt) {
      const { data: profile } = await f.service
        .from('profiles')
        .select('*')
        .eq('id', f.users.spare.id)
        .single();
      await f.service.from('profiles').delete().eq('id', f.users.spare.id);
      const took = await attempt();
      await f.service.from('profiles').upsert(profile as Row);
      return took;
    },
    disposable: (f) => ({ id: f.users.spare.id }),
  },
  {
    // The learner's settings (decision 0170): theirs alone.
    table: 'user_preferences',
    target: (f) => ({ user_id: f.users.learner.id }),
    change: { text_size: 'largest' },
    insert: (f) => ({
      row: { user_id: f.users.learner.id, text_size: 'larger' },
      find: { user_id: f.users.learner.id, text_size: 'larger' },
    }),
    async aroundInsert(f, attempt) {
      const { data: saved } = await f.service
        .from('user_preferences')
        .select('*')
        .eq('user_id', f.users.learner.id)
        .single();
      await f.service.from('user_preferences').delete().eq('user_id', f.users.learner.id);
      const took = await attempt();
      await f.service.from('user_preferences').upsert(saved as Row);
      return took;
    },
    disposable: (f) => ({ user_id: f.users.spare.id }),
  },
  // XP, badges and time on task (decision 0171): written by the database, read by their learner.
  {
    table: 'xp_events',
    target: (f) => ({ user_id: f.users.learner.id, source: 'quiz_passed' }),
    change: { amount: 99 },
    insert: (f) => {
      const source_id = unique('forged');
      return {
        row: {
          user_id: f.users.learner.id,
          source: 'goal_met',
          source_id,
          amount: 100,
          local_day: '2026-01-05',
        },
        find: { source_id },
      };
    },
    disposable: (f) => ({
      user_id: f.users.learner.id,
      source: 'goal_met',
      source_id: unique('spare'),
      amount: 1,
      local_day: '2026-01-05',
    }),
  },
  {
    table: 'user_badges',
    target: (f) => ({ user_id: f.users.learner.id, badge: 'first_quiz' }),
    change: { earned_at: '2020-01-01T00:00:00+00:00' },
    insert: (f) => ({
      row: { user_id: f.users.learner.id, badge: 'level_10' },
      find: { user_id: f.users.learner.id, badge: 'level_10' },
    }),
    disposable: (f) => ({ user_id: f.users.learner.id, badge: unique('spare') }),
  },
  {
    table: 'study_time',
    target: (f) => ({ user_id: f.users.learner.id, course_id: f.course, local_day: '2026-01-05' }),
    change: { seconds: 86400 },
    insert: (f) => ({
      row: {
        user_id: f.users.learner.id,
        course_id: f.course,
        local_day: '2026-01-06',
        seconds: 600,
      },
      find: { user_id: f.users.learner.id, local_day: '2026-01-06' },
    }),
    disposable: (f) => ({
      user_id: f.users.learner.id,
      course_id: f.course,
      local_day: '2026-01-07',
      seconds: 1,
    }),
  },
  {
    table: 'user_roles',
    target: (f) => ({ user_id: f.users.learner.id, organization_id: f.orgA }),
    change: { role: 'admin' },
    insert: (f, actor) =>
      byId({ user_id: actor === 'anon' ? f.users.spare.id : f.users[actor].id, role: 'admin' }),
    disposable: (f) => ({ user_id: f.users.spare.id, role: 'instructor' }),
  },
  // Study material (decision 0160): the learner's alone, whoever teaches or runs the course.
  {
    table: 'notes',
    target: (f) => ({ id: f.note }),
    change: { title: 'Renamed note' },
    insert: (f) => byId({ user_id: f.users.learner.id, course_id: f.course, title: 'Rogue' }),
    disposable: (f) => ({ user_id: f.users.learner.id, title: 'Spare note' }),
  },
  {
    table: 'flashcard_decks',
    target: (f) => ({ id: f.deck }),
    change: { name: 'Renamed deck' },
    insert: (f) => byId({ user_id: f.users.learner.id, course_id: f.course, name: 'Rogue deck' }),
    disposable: (f) => ({ user_id: f.users.learner.id, name: 'Spare deck' }),
  },
  {
    table: 'flashcards',
    target: (f) => ({ id: f.card }),
    change: { back: 'Changed back' },
    insert: (f) =>
      byId({ user_id: f.users.learner.id, deck_id: f.deck, front: 'Rogue', back: 'card' }),
    disposable: (f) => ({
      user_id: f.users.learner.id,
      deck_id: f.deck,
      front: 'Spare',
      back: 'card',
    }),
  },
  {
    table: 'flashcard_reviews',
    target: (f) => ({ id: f.review }),
    change: { rating: 4 },
    insert: (f) => byId(flashcardReviewRow(f.users.learner.id, f.card, f.deck)),
    disposable: (f) => flashcardReviewRow(f.users.learner.id, f.card, f.deck),
  },
  // Subscriptions and coupons (decision 0600): written only by the server (webhook, checkout,
  // coupon procedures); coupons are read by platform admins alone (tested in billing-coupons).
  {
    table: 'subscribers',
    name: "subscribers (the organization's)",
    target: (f) => ({ organization_id: f.orgA }),
    change: { status: 'past_due' },
    insert: (f) =>
      byId({ organization_id: f.orgB, tier: 'enterprise', status: 'active', source: 'coupon' }),
    disposable: (f) => ({
      user_id: f.users.spare.id,
      tier: 'pro',
      status: 'active',
      source: 'coupon',
    }),
  },
  {
    table: 'subscribers',
    name: "subscribers (the learner's own)",
    target: (f) => ({ user_id: f.users.learner.id }),
    change: { tier: 'enterprise' },
    insert: (f) =>
      byId({ user_id: f.users.spare.id, tier: 'pro', status: 'active', source: 'coupon' }),
    disposable: (f) => ({
      user_id: f.users.spare.id,
      tier: 'pro',
      status: 'active',
      source: 'coupon',
    }),
  },
  {
    table: 'coupons',
    target: () => ({ code: 'MATRIX-COUPON' }),
    change: { max_redemptions: 999 },
    insert: () => byId({ code: unique('ROGUE').toUpperCase(), tier: 'pro', max_redemptions: 99 }),
    disposable: () => ({ code: unique('SPARE').toUpperCase(), tier: 'free', max_redemptions: 1 }),
  },
  {
    table: 'coupon_redemptions',
    target: (f) => ({ user_id: f.users.learner.id }),
    change: { purpose: 'checkout' },
    insert: (f) => {
      const row = { coupon_id: matrixCoupon.id, user_id: f.users.spare.id, purpose: 'sign_up' };
      return { row, find: ids(row, ['coupon_id', 'user_id']) };
    },
    disposable: (f) => ({
      coupon_id: matrixCoupon.id,
      user_id: f.users.spare.id,
      purpose: 'sign_up',
    }),
  },
  // Consent and data requests (decisions 0410, 0411): written only through their procedures.
  {
    table: 'user_consent',
    target: (f) => ({ user_id: f.users.learner.id, category: 'analytics' }),
    change: { granted: true },
    insert: (f) => {
      const row = {
        user_id: f.users.learner.id,
        category: 'marketing',
        granted: true,
        policy_version: '2026-11-23',
        source: 'banner',
      };
      return { row, find: ids(row, ['user_id', 'category']) };
    },
    disposable: (f) => ({
      user_id: f.users.spare.id,
      category: 'functional',
      granted: true,
      policy_version: '2026-11-23',
      source: 'settings',
    }),
  },
  {
    table: 'user_consent_history',
    target: (f) => ({ user_id: f.users.learner.id, category: 'analytics' }),
    change: { granted: true },
    insert: (f) => {
      const row = {
        user_id: f.users.learner.id,
        category: 'marketing',
        granted: true,
        policy_version: '2026-11-23',
        source: 'banner',
      };
      return { row, find: ids(row, ['user_id', 'category']) };
    },
    disposable: (f) => ({
      user_id: f.users.spare.id,
      category: 'functional',
      granted: true,
      policy_version: '2026-11-23',
      source: 'settings',
    }),
  },
  {
    table: 'data_subject_requests',
    target: () => ({ id: matrixRequest.id }),
    change: { status: 'completed', completed_at: '2026-11-23T12:00:00+00:00' },
    insert: (f) => byId({ user_id: f.users.learner.id, request_type: 'objection' }),
    disposable: (f) => ({ user_id: f.users.learner.id, request_type: 'restriction' }),
  },
  // IEP documents and the HIPAA access log (decision 0422): the documents only through the
  // iep function's logged procedures; the log written only by their reads (decision 0435).
  {
    table: 'iep_documents',
    target: () => ({ id: matrixIep.document }),
    change: { title: 'Renamed IEP' },
    insert: (f) =>
      byId({
        organization_id: f.orgA,
        learner_id: f.users.learner.id,
        title: 'Forged IEP',
        file_name: 'forged.txt',
        content_type: 'text/plain',
        size_bytes: 1,
        object_path: `${f.orgA}/${f.users.learner.id}/${unique('forged')}`,
      }),
    disposable: (f) => ({
      organization_id: f.orgA,
      learner_id: f.users.learner.id,
      title: 'Spare IEP',
      file_name: 'spare.txt',
      content_type: 'text/plain',
      size_bytes: 1,
      object_path: `${f.orgA}/${f.users.learner.id}/${unique('spare')}`,
    }),
  },
  {
    table: 'hipaa_audit_log',
    target: () => ({ id: matrixIep.logId }),
    change: { purpose: 'Nothing happened here' },
    insert: (f) => {
      const row = {
        user_id: f.users.instructor.id,
        roles: ['instructor'],
        action: 'view',
        phi_accessed: 'IEP document',
        patient_id: f.users.learner.id,
        organization_id: f.orgA,
        purpose: unique('forged access'),
        audit_id: 1,
      };
      return { row, find: ids(row, ['purpose']) };
    },
    disposable: () => ({}),
    makeDisposable: logIepAccess,
  },
  // Usage counters and events (decision 0202): written by track_usage, read by their owner.
  {
    table: 'user_quotas',
    target: (f) => ({ user_id: f.users.learner.id, feature_type: 'coach_message' }),
    change: { used: 400 },
    insert: (f) => {
      const row = {
        user_id: f.users.learner.id,
        feature_type: 'forged_feature',
        tier: 'free',
        monthly_limit: 999999,
        period_start: '2026-11-01T00:00:00Z',
        resets_at: '2026-12-01T00:00:00Z',
      };
      return { row, find: ids(row, ['user_id', 'feature_type']) };
    },
    disposable: (f) => ({
      user_id: f.users.spare.id,
      feature_type: 'spare_feature',
      tier: 'free',
      monthly_limit: 5,
      period_start: '2026-11-01T00:00:00Z',
      resets_at: '2026-12-01T00:00:00Z',
    }),
  },
  {
    table: 'usage_events',
    target: (f) => ({ user_id: f.users.learner.id, feature_type: 'coach_message' }),
    change: { amount: 99 },
    insert: (f) => {
      const row = { user_id: f.users.learner.id, feature_type: 'forged_feature', amount: 1 };
      return { row, find: ids(row, ['user_id', 'feature_type']) };
    },
    disposable: (f) => ({ user_id: f.users.learner.id, feature_type: 'coach_message', amount: 2 }),
  },
  // Analytics counters (decision 0135): kept by triggers, read by admins, written by nobody.
  ...insightCases(),
];

/**
 * The days of the activity counters the fixture's enrolment left (read in beforeAll from the stored
 * rows, not the clock, so a run that crosses midnight UTC aims at the rows that exist).
 */
const matrixActivityDays = { course: '', organization: '', board: '' };

async function readActivityDays(f: LearningFixture, server: TestServer): Promise<void> {
  const day = async (table: string, column: string, id: string) => {
    const { rows } = await server.deps.db.query<{ day: string | null }>(
      `select max(day)::text as day from public.${table} where ${column} = $1`,
      [id],
    );
    const found = rows[0]?.day;
    if (!found) throw new Error(`${table} fixture: the fixture left no counter row`);
    return found;
  };
  matrixActivityDays.course = await day('course_activity_days', 'course_id', f.course);
  matrixActivityDays.organization = await day(
    'organization_activity_days',
    'organization_id',
    f.orgA,
  );
  matrixActivityDays.board = await day('board_activity_days', 'board_id', f.boardArts);
}

/** The counters of organization A's course, its organization and board Arts. */
function insightCases(): TableCase[] {
  const keyed = (
    table: string,
    target: (f: LearningFixture) => Row,
    key: string[],
    extra: (f: LearningFixture) => Row,
  ) => ({
    table,
    target,
    change: { [table.endsWith('_days') ? 'learners' : 'enrollments']: 99 },
    insert: (f: LearningFixture) => {
      const row = {
        ...extra(f),
        ...(key.includes('course_id') ? { course_id: randomUUID() } : {}),
      };
      return { row, find: ids(row, key) };
    },
    disposable: (f: LearningFixture) => ({
      ...extra(f),
      ...(key.includes('course_id') ? { course_id: randomUUID() } : {}),
    }),
  });
  return [
    keyed(
      'course_stats',
      (f) => ({ course_id: f.course }),
      ['course_id'],
      (f) => ({ organization_id: f.orgA }),
    ),
    keyed(
      'course_activity_days',
      (f) => ({ course_id: f.course, day: matrixActivityDays.course }),
      ['course_id', 'day'],
      (f) => ({ organization_id: f.orgA, day: '2000-01-01' }),
    ),
    keyed(
      'organization_activity_days',
      (f) => ({ organization_id: f.orgA, day: matrixActivityDays.organization }),
      ['organization_id', 'day'],
      (f) => ({ organization_id: f.orgA, day: '2000-01-02' }),
    ),
    keyed(
      'board_course_stats',
      (f) => ({ board_id: f.boardArts, course_id: f.course }),
      ['board_id', 'course_id'],
      (f) => ({ board_id: f.boardArts, organization_id: f.orgA }),
    ),
    keyed(
      'board_activity_days',
      (f) => ({ board_id: f.boardArts, day: matrixActivityDays.board }),
      ['board_id', 'day'],
      (f) => ({ board_id: f.boardArts, organization_id: f.orgA, day: '2000-01-02' }),
    ),
  ];
}

/** A cell: the actors whose attempt took effect, in the order of `actors`. */
type Matrix = Record<string, Record<Op, string>>;

const only = (...who: Actor[]) => who.join(' ');
const staff = only('instructor', 'org_admin', 'owner');
const courseReaders = only('learner', 'instructor', 'org_admin', 'owner');
const own = only('learner');

// The expected matrix (decision 0100). Other actors, anon, the deactivated member and
// organization B's users above all, appear in no cell.
const expected: Matrix = {
  organizations: {
    select: only('learner', 'instructor', 'board_admin', 'org_admin', 'owner', 'compliance'),
    insert: '',
    update: only('org_admin', 'owner'),
    delete: '',
  },
  boards: {
    select: only('learner', 'instructor', 'board_admin', 'org_admin', 'owner', 'compliance'),
    insert: only('owner'),
    update: only('owner'),
    delete: only('owner'),
  },
  memberships: {
    select: only('learner', 'board_admin', 'org_admin', 'owner'),
    insert: only('board_admin', 'org_admin', 'owner'),
    update: only('board_admin', 'org_admin', 'owner'),
    delete: only('board_admin', 'org_admin', 'owner'),
  },
  courses: {
    select: only('learner', 'instructor', 'board_admin', 'org_admin', 'owner'),
    insert: only('instructor', 'board_admin', 'org_admin', 'owner'),
    update: staff,
    delete: only('org_admin', 'owner'),
  },
  course_boards: {
    select: only('learner', 'instructor', 'board_admin', 'org_admin', 'owner'),
    insert: only('owner'),
    update: '',
    delete: only('owner'),
  },
  course_instructors: {
    select: courseReaders,
    insert: only('org_admin', 'owner'),
    update: '',
    delete: only('org_admin', 'owner'),
  },
  modules: { select: courseReaders, insert: staff, update: staff, delete: staff },
  lessons: { select: courseReaders, insert: staff, update: staff, delete: staff },
  questions: { select: staff, insert: staff, update: staff, delete: staff },
  assessments: { select: courseReaders, insert: staff, update: staff, delete: staff },
  assessment_questions: { select: staff, insert: staff, update: staff, delete: staff },
  assignments: { select: courseReaders, insert: staff, update: staff, delete: staff },
  enrollments: {
    // A board admin reads the enrolments of their board's people in courses distributed to it.
    select: only('learner', 'instructor', 'board_admin', 'org_admin', 'owner'),
    insert: only('learner', 'instructor', 'board_admin', 'org_admin', 'owner'),
    update: only('org_admin', 'owner'),
    delete: only('learner', 'org_admin', 'owner'),
  },
  lesson_progress: {
    select: courseReaders,
    insert: only('learner'),
    update: only('learner'),
    delete: '',
  },
  assessment_attempts: { select: courseReaders, insert: '', update: '', delete: '' },
  course_posts: {
    select: courseReaders,
    insert: courseReaders,
    update: only('learner'),
    delete: courseReaders,
  },
  profiles: {
    select: courseReaders,
    insert: '',
    update: only('learner'),
    delete: '',
  },
  user_roles: { select: only('learner', 'org_admin', 'owner'), insert: '', update: '', delete: '' },
  xp_events: { select: only('learner'), insert: '', update: '', delete: '' },
  user_badges: { select: only('learner'), insert: '', update: '', delete: '' },
  study_time: { select: only('learner'), insert: '', update: '', delete: '' },
  user_preferences: {
    select: only('learner'),
    insert: only('learner'),
    update: only('learner'),
    delete: '',
  },
  // Instructor-set goals are the staff's to change; a learner changes only those they set.
  goals: { select: courseReaders, insert: courseReaders, update: staff, delete: staff },
  "goals (the learner's own)": {
    select: courseReaders,
    insert: courseReaders,
    update: courseReaders,
    delete: courseReaders,
  },
  // A learner's highlights are theirs alone, even from whoever teaches the course (who may
  // highlight for themself).
  highlights: {
    select: only('learner'),
    insert: courseReaders,
    update: only('learner'),
    delete: only('learner'),
  },
  notes: { select: own, insert: own, update: own, delete: own },
  // The live hub (decision 0310): the room is its enrolled learners' and its teachers'. Those
  // who teach remove messages (an update), mute, ask and close questions and lower hands; a
  // learner posts, answers once and raises their own hand; answers are the answerer's and
  // the teachers' to read; nobody deletes messages, questions or answers through the API.
  live_messages: { select: courseReaders, insert: courseReaders, update: staff, delete: '' },
  live_mutes: { select: staff, insert: staff, update: '', delete: staff },
  live_questions: { select: courseReaders, insert: staff, update: staff, delete: '' },
  live_answers: { select: courseReaders, insert: own, update: '', delete: '' },
  live_hands: { select: courseReaders, insert: own, update: '', delete: staff },
  flashcard_decks: { select: own, insert: own, update: own, delete: own },
  flashcards: { select: own, insert: own, update: own, delete: own },
  // Written only by the flashcards function (a rating) and undo_flashcard_review.
  flashcard_reviews: { select: own, insert: '', update: '', delete: '' },
  // The study coach's sessions, messages and teaching history are the learner's alone: the
  // coach function writes them, the learner may delete a session, and those who teach see
  // only anonymized aggregates (decision 0210).
  chat_sessions: { select: only('learner'), insert: '', update: '', delete: only('learner') },
  chat_messages: { select: only('learner'), insert: '', update: '', delete: '' },
  coach_teaching_log: { select: only('learner'), insert: '', update: '', delete: '' },
  'storage course-files': { select: courseReaders, insert: staff, update: staff, delete: staff },
  // A learner's own knowledge base: their files and the text extracted from them are theirs
  // alone, not even whoever teaches their course reads them (decision 0221).
  kb_documents: { select: own, insert: '', update: '', delete: '' },
  // Anonymized struggle insights (course_struggle_insights, decision 0222): only a procedure,
  // for whoever teaches the course (organization admins and the owner do); never learners.
  'course_struggle_insights()': {
    select: only('instructor', 'org_admin', 'owner'),
    insert: '',
    update: '',
    delete: '',
  },
  'storage kb_files': { select: own, insert: own, update: own, delete: own },
  course_stats: { select: only('org_admin', 'owner'), insert: '', update: '', delete: '' },
  course_activity_days: { select: only('org_admin', 'owner'), insert: '', update: '', delete: '' },
  organization_activity_days: {
    select: only('org_admin', 'owner'),
    insert: '',
    update: '',
    delete: '',
  },
  // Admins (owner, org admin) and Educators (instructor, board admin) of A read its jobs.
  adapt_jobs: {
    select: only('instructor', 'board_admin', 'org_admin', 'owner'),
    insert: '',
    update: '',
    delete: '',
  },
  adapt_job_stages: {
    select: only('instructor', 'board_admin', 'org_admin', 'owner'),
    insert: '',
    update: '',
    delete: '',
  },
  // An export run and a publication are read by whoever reads the job; a publication is
  // written (by adapt.publish_lesson, as the caller) only into a course the writer teaches.
  adapt_exports: {
    select: only('instructor', 'board_admin', 'org_admin', 'owner'),
    insert: '',
    update: '',
    delete: '',
  },
  adapt_quiz_reviews: {
    select: only('instructor', 'board_admin', 'org_admin', 'owner'),
    insert: '',
    update: '',
    delete: '',
  },
  adapt_publications: {
    select: only('instructor', 'board_admin', 'org_admin', 'owner'),
    insert: only('instructor', 'org_admin', 'owner'),
    update: '',
    delete: '',
  },
  // The endpoint is its organization's Admins' to read (its secret readable by nobody) and is
  // written only through adapt.save_endpoint and adapt.delete_endpoint, after the SSRF guard
  // (decision 0516); the log is theirs and the requester's (the instructor asked for the
  // fixture's delivery).
  adapt_webhook_endpoints: {
    select: only('org_admin', 'owner'),
    insert: '',
    update: '',
    delete: '',
  },
  adapt_webhook_deliveries: {
    select: only('instructor', 'org_admin', 'owner'),
    insert: '',
    update: '',
    delete: '',
  },
  adapt_webhook_attempts: {
    select: only('instructor', 'org_admin', 'owner'),
    insert: '',
    update: '',
    delete: '',
  },
  board_course_stats: { select: only('owner'), insert: '', update: '', delete: '' },
  board_activity_days: { select: only('owner'), insert: '', update: '', delete: '' },
  // The owner and organization-wide admins see what the organization pays for; members and
  // board admins do not (check-subscription tells each person their own tier).
  "subscribers (the organization's)": {
    select: only('org_admin', 'owner'),
    insert: '',
    update: '',
    delete: '',
  },
  "subscribers (the learner's own)": { select: own, insert: '', update: '', delete: '' },
  coupons: { select: '', insert: '', update: '', delete: '' },
  coupon_redemptions: { select: own, insert: '', update: '', delete: '' },
  // Consent is the person's own (platform admins also read it); requests are theirs and their
  // organization-wide admins' (decision 0411); nobody writes either but their procedures.
  user_consent: { select: own, insert: '', update: '', delete: '' },
  user_consent_history: { select: own, insert: '', update: '', delete: '' },
  data_subject_requests: {
    select: only('learner', 'org_admin', 'owner'),
    insert: '',
    update: '',
    delete: '',
  },
  // Nobody reads or writes IEP documents but through the iep function (decision 0422); the
  // organization's compliance officer reads the HIPAA access log, nobody writes it directly;
  // those who may list a learner's documents: their instructor and the organization's admins.
  iep_documents: { select: '', insert: '', update: '', delete: '' },
  hipaa_audit_log: { select: only('compliance'), insert: '', update: '', delete: '' },
  'list_iep_documents()': { select: staff, insert: '', update: '', delete: '' },
  'storage iep-documents': { select: '', insert: '', update: '', delete: '' },
  // The audit log's daily counts (decision 0431): read by the organization's compliance officer
  // (and platform admins, no actor here), directly or through audit_access_patterns; written
  // only by the log's own triggers.
  'audit.access_daily': { select: only('compliance'), insert: '', update: '', delete: '' },
  'audit_access_patterns()': { select: only('compliance'), insert: '', update: '', delete: '' },
  // Usage counters and events (decision 0202): written by track_usage, read by their owner.
  user_quotas: { select: own, insert: '', update: '', delete: '' },
  usage_events: { select: own, insert: '', update: '', delete: '' },
};

/** Values in `change` that name fixture things rather than literal values. */
function resolveChange(f: LearningFixture, change: Row): Row {
  const named: Record<string, string> = {
    science: f.boardScience,
    board_admin: f.users.board_admin.id,
  };
  return Object.fromEntries(
    Object.entries(change).map(([k, v]) => [k, typeof v === 'string' && named[v] ? named[v] : v]),
  );
}

async function exists(service: SupabaseClient, table: string, find: Row): Promise<boolean> {
  const { data, error } = await service.from(table).select('*').match(find).limit(1);
  if (error) throw new Error(`service read of ${table}: ${error.message}`);
  return data.length > 0;
}

async function tryTable(f: LearningFixture, c: TableCase, actor: Actor, op: Op): Promise<boolean> {
  const client = f.client(actor);
  const service = f.service;
  const target = c.target(f);
  if (op === 'select') {
    const { data } = await client
      .from(c.table)
      .select(c.columns ?? '*')
      .match(target);
    return (data ?? []).length > 0;
  }
  if (op === 'insert') {
    const { row, find } = c.insert(f, actor);
    const attempt = async () => {
      await client.from(c.table).insert(row);
      const took = await exists(service, c.table, find);
      if (took) await service.from(c.table).delete().match(find);
      return took;
    };
    return c.aroundInsert ? c.aroundInsert(f, attempt) : attempt();
  }
  if (op === 'update') {
    const change = resolveChange(f, c.change);
    const { data: before } = await service.from(c.table).select('*').match(target).single();
    if (Object.entries(change).every(([k, v]) => (before as Row)[k] === v)) {
      throw new Error(`the update case of ${c.table} changes nothing, so it could not fail`);
    }
    await client.from(c.table).update(change).match(target);
    const { data: after } = await service.from(c.table).select('*').match(target).maybeSingle();
    const moved = { ...target, ...change };
    const took =
      after === null
        ? await exists(service, c.table, moved)
        : Object.entries(change).some(([k, v]) => (after as Row)[k] === v);
    if (took) {
      // Put the row back exactly as it was (the change may have moved its key).
      // A generated column (notes.search) cannot be written back; the database recomputes it.
      const { search: _generated, ...restorable } = before as Row;
      await service
        .from(c.table)
        .update(restorable)
        .match(after === null ? moved : target);
      // Deactivating the learner's only membership banned the account and ended its sessions.
      if (c.table === 'memberships') await f.signInAgain('learner');
    }
    return took;
  }
  if (c.table === 'profiles') {
    // A profile lives as long as its account; the attempt aims at the spare account's.
    await client.from('profiles').delete().eq('id', f.users.spare.id);
    return !(await exists(service, 'profiles', { id: f.users.spare.id }));
  }
  if (c.deletesTarget) {
    const { data: saved } = await service.from(c.table).select('*').match(target).single();
    await client.from(c.table).delete().match(target);
    const took = !(await exists(service, c.table, target));
    if (took) await service.from(c.table).insert(saved as Row);
    return took;
  }
  const { data: spare, error } = c.makeDisposable
    ? { data: await c.makeDisposable(f), error: null }
    : await service.from(c.table).insert(c.disposable(f)).select().single();
  if (error) throw new Error(`disposable ${c.table}: ${error.message}`);
  const key =
    'id' in (spare as Row)
      ? { id: (spare as Row).id }
      : ids(spare as Row, Object.keys(c.target(f)));
  await client.from(c.table).delete().match(key);
  const took = !(await exists(service, c.table, key));
  if (!took) await service.from(c.table).delete().match(key);
  return took;
}

interface BucketCase {
  bucket: string;
  type: string;
  /** An object every attempt aims at, and what it holds. */
  existing(f: LearningFixture): { path: string; content: string };
  /** A fresh path to upload to. */
  fresh(f: LearningFixture, label: string): string;
}

const buckets: Record<string, BucketCase> = {
  'storage course-files': {
    bucket: 'course-files',
    type: 'application/pdf',
    existing: (f) => ({ path: f.filePath, content: '%PDF-1.4 sample' }),
    fresh: (f, label) => `${f.course}/${unique(label)}.pdf`,
  },
  'storage kb_files': {
    bucket: 'kb_files',
    type: 'text/markdown',
    existing: () => ({ path: matrixKb.path, content: '# Notes\n\nOsmosis moves water.' }),
    fresh: (f, label) => `${f.users.learner.id}/${unique(label)}.md`,
  },
  'storage iep-documents': {
    bucket: 'iep-documents',
    type: 'text/plain',
    existing: () => ({ path: matrixIep.path, content: 'IEP' }),
    fresh: (f, label) => `${f.orgA}/${f.users.learner.id}/${unique(label)}`,
  },
};

async function tryStorage(
  f: LearningFixture,
  b: BucketCase,
  actor: Actor,
  op: Op,
): Promise<boolean> {
  const bucket = (client: SupabaseClient) => client.storage.from(b.bucket);
  const client = f.client(actor);
  const existing = b.existing(f);
  const stored = async (path: string) => (await bucket(f.service).download(path)).data;
  if (op === 'select') return (await bucket(client).download(existing.path)).data !== null;
  if (op === 'insert') {
    const path = b.fresh(f, 'upload');
    await bucket(client).upload(path, new Blob(['rogue'], { type: b.type }), {
      contentType: b.type,
    });
    const took = (await stored(path)) !== null;
    if (took) await bucket(f.service).remove([path]);
    return took;
  }
  if (op === 'update') {
    const marker = unique('changed');
    await bucket(client).update(existing.path, new Blob([marker], { type: b.type }), {
      contentType: b.type,
    });
    const after = await stored(existing.path);
    const took = (await after?.text()) === marker;
    if (took) {
      await bucket(f.service).update(
        existing.path,
        new Blob([existing.content], { type: b.type }),
        {
          contentType: b.type,
        },
      );
    }
    return took;
  }
  const path = b.fresh(f, 'spare');
  await bucket(f.service).upload(path, new Blob(['spare'], { type: b.type }), {
    contentType: b.type,
  });
  await bucket(client).remove([path]);
  const took = (await stored(path)) === null;
  if (!took) await bucket(f.service).remove([path]);
  return took;
}

describe.each(databaseKinds)('learning role matrix on %s', (kind) => {
  let server: TestServer;
  let f: LearningFixture;
  beforeAll(async () => {
    // The matrix sends hundreds of checks a second with one service key; the limit is not under test here.
    server = await startTestServer(kind, {
      AUTH_RATE_LIMIT_SIGN_IN: '1000',
      API_RATE_LIMIT_PER_SECOND: '100000',
      // The product's REST exposes `public` alone; `audit` too here, so that each actor's request
      // of the audit log's daily counts meets the table's own grants and row-level security.
      REST_DB_SCHEMAS: 'public,audit',
    });
    f = await buildLearningFixture(server);
    await seedBilling(f);
    await seedKnowledgeBase(f, server);
    await seedPrivacy(f);
    await seedIep(f);
    await seedAdaptOutputs(f);
    await readActivityDays(f, server);
  });
  afterAll(() => server?.stop());

  const ops: Op[] = ['select', 'insert', 'update', 'delete'];

  it.each(cases.map((c) => [c.name ?? c.table, c] as const))('%s', async (name, c) => {
    const actual: Record<Op, string> = { select: '', insert: '', update: '', delete: '' };
    for (const op of ops) {
      const allowed: Actor[] = [];
      for (const actor of actors) if (await tryTable(f, c, actor, op)) allowed.push(actor);
      actual[op] = allowed.join(' ');
    }
    expect(actual).toEqual(expected[name]);
  });

  it('course_struggle_insights()', async () => {
    const allowed: Actor[] = [];
    for (const actor of actors) {
      const { error } = await f.client(actor).rpc('course_struggle_insights', { course: f.course });
      if (!error) allowed.push(actor);
    }
    const actual = { select: allowed.join(' '), insert: '', update: '', delete: '' };
    expect(actual).toEqual(expected['course_struggle_insights()']);
  });

  // The daily counts of organization A's audit entries (decision 0431), read and written through
  // supabase-js as each actor; what took effect is checked as the database owner (no API role,
  // the service role included, may read the table).
  it('audit.access_daily', async () => {
    const { db } = server.deps;
    const daily = (client: SupabaseClient) => client.schema('audit').from('access_daily');
    const count = async (where: string, values: unknown[]) =>
      (
        await db.query<{ n: number }>(
          `select count(*)::int as n from audit.access_daily where ${where}`,
          values,
        )
      ).rows[0]!.n;
    const row = (day: string, action: string, entries: number) => ({
      organization_id: f.orgA,
      day,
      user_id: f.users.learner.id,
      table_name: 'public.notes',
      action,
      entries,
    });
    const put = (r: ReturnType<typeof row>) =>
      db.query(
        `insert into audit.access_daily (organization_id, day, user_id, table_name, action, entries)
         values ($1, $2, $3, $4, $5, $6)`,
        [r.organization_id, r.day, r.user_id, r.table_name, r.action, r.entries],
      );
    const remove = (action: string) =>
      db.query('delete from audit.access_daily where action = $1', [action]);
    // A's counts the fixture's audited writes left, and one row each attempt aims at.
    expect(await count('organization_id = $1', [f.orgA])).toBeGreaterThan(0);
    const target = row('2000-01-05', 'matrix.target', 7);
    await put(target);
    const actual: Record<Op, string> = { select: '', insert: '', update: '', delete: '' };
    const allowed: Record<Op, Actor[]> = { select: [], insert: [], update: [], delete: [] };
    try {
      for (const actor of actors) {
        const client = f.client(actor);
        const { data } = await daily(client).select('*').eq('organization_id', f.orgA);
        if ((data ?? []).length > 0) allowed.select.push(actor);

        await daily(client).insert(row('2000-01-03', 'matrix.forged', 1));
        if ((await count("action = 'matrix.forged'", [])) > 0) allowed.insert.push(actor);
        await remove('matrix.forged');

        await daily(client).update({ entries: 999 }).match({ action: 'matrix.target' });
        if ((await count("action = 'matrix.target' and entries = 999", [])) > 0) {
          allowed.update.push(actor);
          await db.query(
            "update audit.access_daily set entries = 7 where action = 'matrix.target'",
          );
        }

        await put(row('2000-01-06', 'matrix.spare', 1));
        await daily(client).delete().match({ action: 'matrix.spare' });
        if ((await count("action = 'matrix.spare'", [])) === 0) allowed.delete.push(actor);
        await remove('matrix.spare');
      }
    } finally {
      await remove('matrix.target');
    }
    for (const op of ['select', 'insert', 'update', 'delete'] as const)
      actual[op] = allowed[op].join(' ');
    expect(actual).toEqual(expected['audit.access_daily']);
  });

  // The same counts as the console reads them: the function runs as the caller (decision 0431).
  it('audit_access_patterns()', async () => {
    const allowed: Actor[] = [];
    for (const actor of actors) {
      const { data, error } = await f
        .client(actor)
        .rpc('audit_access_patterns', { since_days: 7, organization: f.orgA });
      if (!error && (data as unknown[]).length > 0) allowed.push(actor);
    }
    const actual = { select: allowed.join(' '), insert: '', update: '', delete: '' };
    expect(actual).toEqual(expected['audit_access_patterns()']);
  });

  it('list_iep_documents()', async () => {
    const allowed: Actor[] = [];
    for (const actor of actors) {
      const { error } = await f.client(actor).rpc('list_iep_documents', {
        learner: f.users.learner.id,
        organization: f.orgA,
        purpose: iepPurpose,
      });
      if (!error) allowed.push(actor);
    }
    const actual = { select: allowed.join(' '), insert: '', update: '', delete: '' };
    expect(actual).toEqual(expected['list_iep_documents()']);
  });

  // The profiles policy reads a set and falls back to oversees() (db/app 0923, 0924): every
  // account of the fixture must see exactly the profiles 0380's per-row rule gave it, and the
  // set may hold only people oversees() answers true for.
  it('profiles: each account sees exactly itself and the people it oversees', async () => {
    const { db } = server.deps;
    const { rows: accounts } = await db.query<{ id: string }>('select id::text from auth.users');
    let overseers = 0;
    for (const { id } of accounts) {
      const { rows: expectedRows } = await db.query<{ id: string }>(
        `select p.id::text from public.profiles p
          where p.id = $1 or public.has_role($1, 'admin') or learning.oversees($1, p.id)
          order by 1`,
        [id],
      );
      const visible = await db.asRole({ role: 'authenticated', sub: id }, (tx) =>
        tx.query<{ id: string }>('select id::text from public.profiles order by 1'),
      );
      expect(visible.rows.map((r) => r.id)).toEqual(expectedRows.map((r) => r.id));
      if (expectedRows.length > 1) overseers++;
    }
    // The owner, the organization admin and the instructor at least.
    expect(overseers).toBeGreaterThanOrEqual(3);
    const { rows } = await db.query<{ outside: number }>(
      `select count(*)::int as outside
         from auth.users u, learning.people_overseen_in_bulk(u.id) p (person)
        where not learning.oversees(u.id, p.person)`,
    );
    expect(rows[0]!.outside).toBe(0);
  });

  it.each(Object.entries(buckets))('%s', async (name, b) => {
    const actual: Record<Op, string> = { select: '', insert: '', update: '', delete: '' };
    for (const op of ops) {
      const allowed: Actor[] = [];
      for (const actor of actors) if (await tryStorage(f, b, actor, op)) allowed.push(actor);
      actual[op] = allowed.join(' ');
    }
    expect(actual).toEqual(expected[name]);
  });
});
