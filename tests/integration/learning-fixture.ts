/**
 * Two organizations with a user of every role, created through the auth admin API and
 * signed in with their passwords, and one course of organization A with a row in every
 * learning table. The learning suites build it once per database and share it.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { testClient, type TestServer } from '../support/test-server';
import { insertRow, unique } from '../support/service-rows';

export { insertRow, unique };

export const actors = [
  'anon',
  'learner',
  'instructor',
  'board_admin',
  'org_admin',
  'owner',
  'compliance',
  'deactivated',
  'other_admin',
  'other_learner',
  'personal',
] as const;
export type Actor = (typeof actors)[number];

/** What each actor is, for the decision record and failure messages. */
export const actorDescriptions: Record<Actor, string> = {
  anon: 'no session (anon key)',
  learner: 'learner of A, board Arts, enrolled in the course',
  instructor: 'instructor of A who teaches the course',
  board_admin: 'org_admin of A for board Arts only (a board admin)',
  org_admin: 'organization-wide org_admin of A',
  owner: "A's owner",
  compliance: 'compliance officer of A',
  deactivated:
    'learner of A, enrolled, membership deactivated (still a learner of B, so signed in)',
  other_admin: 'org_admin of organization B',
  other_learner: 'learner of organization B',
  personal: 'an account with no organization (Personal mode)',
};

export interface DemoUser {
  id: string;
  email: string;
  password: string;
  /** The access token of the user's sign-in, which `client` sends. */
  token: string;
  client: SupabaseClient;
}

export interface LearningFixture {
  users: Record<Exclude<Actor, 'anon'>, DemoUser> & { spare: DemoUser };
  client(actor: Actor): SupabaseClient;
  /**
   * Signs the user in again and gives `client` the new session: deactivating someone's last
   * membership bans the account and ends their sessions (decision 0130), so a test that puts
   * the membership back needs a fresh one.
   */
  signInAgain(actor: Exclude<Actor, 'anon'>): Promise<void>;
  service: SupabaseClient;
  orgA: string;
  orgB: string;
  boardArts: string;
  boardScience: string;
  /** Published, visible to A's members, distributed to Arts; the learner is enrolled. */
  course: string;
  /** Published, visible to A's members, nobody enrolled. */
  course2: string;
  personalCourse: string;
  module: string;
  lesson: string;
  lesson2: string;
  question: string;
  question2: string;
  numericQuestion: string;
  shortQuestion: string;
  assessment: string;
  assignment: string;
  attempt: string;
  /** The learner's highlight in `lesson`. */
  highlight: string;
  /** The live room's message, open poll and the learner's answer to it (decision 0310). */
  liveMessage: string;
  liveQuestion: string;
  liveAnswer: string;
  /** The learner's study-coach session on the course, one message of it and one log row. */
  chatSession: string;
  chatMessage: number;
  teachingLogEntry: number;
  post: string;
  filePath: string;
  /** A goal the instructor set for the learner, and one the learner set themself. */
  goal: string;
  ownGoal: string;
  /** The learner's flashcard deck for the course, a card in it and a review of the card. */
  deck: string;
  card: string;
  review: string;
  /** The learner's note on the course. */
  note: string;
  /** An LE Adapt job the instructor (an Educator of A) made, with its first stage. */
  adaptJob: string;
}

export function questionRow(
  courseId: string,
  moduleId: string,
  slug: string,
  type: 'multiple_choice' | 'numeric' | 'short_text' = 'multiple_choice',
): Record<string, unknown> {
  const shapes = {
    multiple_choice: {
      choices: [
        { id: 'a', text: 'Oxygen' },
        { id: 'b', text: 'Nitrogen' },
        { id: 'c', text: 'Carbon dioxide' },
      ],
      answer: { choice: 'a' },
    },
    numeric: { choices: null, answer: { value: 12, tolerance: 0.5, unit: 'breaths/min' } },
    short_text: { choices: null, answer: { text: 'Gas exchange across the alveolar wall.' } },
  } as const;
  return {
    course_id: courseId,
    module_id: moduleId,
    slug,
    type,
    prompt: 'Which gas passes from the alveoli into the blood?',
    ...shapes[type],
    key_points: ['Alveoli are thin-walled', 'Gases move down their partial-pressure gradient'],
    hints: ['Think about what the blood carries to the cells.', 'It is the gas we inhale for.'],
    worked_example: 'Carbon dioxide moves the other way, from the blood into the alveoli.',
    misconceptions: [
      {
        misconception: 'The lungs absorb nitrogen',
        feedback: 'Nitrogen is inhaled but not absorbed in any useful amount.',
        choice: 'b',
      },
    ],
    difficulty: 1,
    prerequisite: {
      concept: 'Diffusion',
      refresher: 'Molecules spread from where they are concentrated to where they are not.',
      questions: [
        { prompt: 'Is diffusion passive?', type: 'short_text', answer: { text: 'Yes' } },
        {
          prompt: 'How many percent oxygen is in air?',
          type: 'numeric',
          answer: { value: 21, tolerance: 1, unit: '%' },
        },
      ],
    },
  };
}

async function createUser(server: TestServer, label: string): Promise<DemoUser> {
  const email = `${unique(label)}@example.com`;
  const password = `pass-${randomUUID()}`;
  const created = await server
    .service()
    .auth.admin.createUser({ email, password, email_confirm: true });
  if (created.error) throw new Error(`create ${label}: ${created.error.message}`);
  const signIn = await server.anon().auth.signInWithPassword({ email, password });
  if (signIn.error) throw new Error(`sign in ${label}: ${signIn.error.message}`);
  return {
    id: created.data.user.id,
    email,
    password,
    token: signIn.data.session.access_token,
    client: testClient(server, server.anonKey, signIn.data.session.access_token),
  };
}

export async function buildLearningFixture(server: TestServer): Promise<LearningFixture> {
  const service = server.service();
  const labels = [...actors.filter((a) => a !== 'anon'), 'spare'] as const;
  const list: DemoUser[] = [];
  // One at a time: each is a password hash, and the machine is small.
  for (const label of labels) list.push(await createUser(server, label));
  const users = Object.fromEntries(
    labels.map((label, i) => [label, list[i]!]),
  ) as LearningFixture['users'];

  const orgA = await insertRow<{ id: string }>(service, 'organizations', {
    name: 'Alpha University',
    slug: unique('alpha'),
    owner_id: users.owner.id,
  });
  const orgB = await insertRow<{ id: string }>(service, 'organizations', {
    name: 'Beta College',
    slug: unique('beta'),
  });
  const arts = await insertRow<{ id: string }>(service, 'boards', {
    organization_id: orgA.id,
    name: 'Faculty of Arts',
    slug: 'arts',
  });
  const science = await insertRow<{ id: string }>(service, 'boards', {
    organization_id: orgA.id,
    name: 'Faculty of Science',
    slug: 'science',
  });
  const member = (user: DemoUser, org: string, role: string, board: string | null = null) =>
    insertRow(service, 'memberships', {
      user_id: user.id,
      organization_id: org,
      board_id: board,
      role,
    });
  await member(users.learner, orgA.id, 'learner', arts.id);
  await member(users.instructor, orgA.id, 'instructor', arts.id);
  await member(users.board_admin, orgA.id, 'org_admin', arts.id);
  await member(users.org_admin, orgA.id, 'org_admin');
  await member(users.compliance, orgA.id, 'compliance_officer');
  await member(users.deactivated, orgA.id, 'learner', arts.id);
  // Active in B, so deactivation in A bars A's data without banning the account (decision
  // 0130): the matrix then tests A's policies against a live token.
  await member(users.deactivated, orgB.id, 'learner');
  await member(users.other_admin, orgB.id, 'org_admin');
  await member(users.other_learner, orgB.id, 'learner');

  const course = await insertRow<{ id: string }>(service, 'courses', {
    organization_id: orgA.id,
    title: 'The respiratory system',
    subject: 'Human anatomy',
    published: true,
    visibility: 'organization',
  });
  const course2 = await insertRow<{ id: string }>(service, 'courses', {
    organization_id: orgA.id,
    title: 'Linear equations',
    subject: 'Algebra',
    published: true,
    visibility: 'organization',
  });
  const personalCourse = await insertRow<{ id: string }>(service, 'courses', {
    title: 'My reading notes',
    owner_id: users.personal.id,
    published: true,
    visibility: 'public',
  });
  await insertRow(service, 'course_boards', {
    course_id: course.id,
    board_id: arts.id,
    organization_id: orgA.id,
  });
  await insertRow(service, 'course_instructors', {
    course_id: course.id,
    user_id: users.instructor.id,
  });
  const module = await insertRow<{ id: string }>(service, 'modules', {
    course_id: course.id,
    position: 1,
    title: 'The lungs',
  });
  const lessonRow = (position: number) => ({
    module_id: module.id,
    course_id: course.id,
    position,
    title: `Lesson ${position}`,
    kind: 'markdown',
    body: '# Breathing\n\nAir enters through the trachea.',
    estimated_minutes: 10,
  });
  const lesson = await insertRow<{ id: string }>(service, 'lessons', lessonRow(1));
  const lesson2 = await insertRow<{ id: string }>(service, 'lessons', lessonRow(2));
  const question = await insertRow<{ id: string }>(
    service,
    'questions',
    questionRow(course.id, module.id, 'gas-exchange'),
  );
  const question2 = await insertRow<{ id: string }>(
    service,
    'questions',
    questionRow(course.id, module.id, 'gas-exchange-2'),
  );
  const numericQuestion = await insertRow<{ id: string }>(
    service,
    'questions',
    questionRow(course.id, module.id, 'breathing-rate', 'numeric'),
  );
  const shortQuestion = await insertRow<{ id: string }>(
    service,
    'questions',
    questionRow(course.id, module.id, 'alveoli', 'short_text'),
  );
  const assessment = await insertRow<{ id: string }>(service, 'assessments', {
    course_id: course.id,
    module_id: module.id,
    title: 'The lungs: quiz',
    published: true,
    max_attempts: 1,
  });
  await insertRow(service, 'assessment_questions', {
    assessment_id: assessment.id,
    question_id: question.id,
    course_id: course.id,
    position: 1,
  });
  const assignment = await insertRow<{ id: string }>(service, 'assignments', {
    course_id: course.id,
    lesson_id: lesson.id,
    title: 'Read about the lungs',
    due_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
  });
  for (const user of [users.learner, users.deactivated]) {
    await insertRow(service, 'enrollments', { user_id: user.id, course_id: course.id });
  }
  const progress = await users.learner.client
    .from('lesson_progress')
    .insert({ lesson_id: lesson.id, course_id: course.id, status: 'in_progress' });
  if (progress.error) throw new Error(`fixture progress: ${progress.error.message}`);
  const attempt = await users.learner.client.rpc('submit_assessment_attempt', {
    assessment_id: assessment.id,
    answers: { [question.id]: { choice: 'a' } },
  });
  if (attempt.error) throw new Error(`fixture attempt: ${attempt.error.message}`);
  const post = await insertRow<{ id: string }>(service, 'course_posts', {
    course_id: course.id,
    author_id: users.learner.id,
    body: 'Why do we breathe faster when running?',
  });
  const goal = await insertRow<{ id: string }>(service, 'goals', {
    user_id: users.learner.id,
    course_id: course.id,
    set_by: users.instructor.id,
    kind: 'complete_module',
    module_id: module.id,
    title: 'Finish the lungs module',
  });
  const ownGoal = await insertRow<{ id: string }>(service, 'goals', {
    user_id: users.learner.id,
    course_id: course.id,
    set_by: users.learner.id,
    kind: 'complete_course',
    title: 'Finish the course',
  });
  const highlight = await insertRow<{ id: string }>(service, 'highlights', {
    user_id: users.learner.id,
    course_id: course.id,
    lesson_id: lesson.id,
    locator: { kind: 'pdf', page: 1, start: 0, end: 12 },
    text: 'The lungs exchange gases',
  });
  const deck = await insertRow<{ id: string }>(service, 'flashcard_decks', {
    user_id: users.learner.id,
    course_id: course.id,
    name: 'The lungs',
  });
  const card = await insertRow<{ id: string }>(service, 'flashcards', {
    user_id: users.learner.id,
    deck_id: deck.id,
    front: 'Where does gas exchange happen?',
    back: 'In the alveoli',
  });
  const review = await insertRow<{ id: string }>(
    service,
    'flashcard_reviews',
    flashcardReviewRow(users.learner.id, card.id, deck.id),
  );
  // Time on task (decision 0171): a minute the database recorded for the learner.
  await insertRow(service, 'study_time', {
    user_id: users.learner.id,
    course_id: course.id,
    local_day: '2026-01-05',
    seconds: 60,
  });
  // Settings (decision 0170): the learner saved theirs.
  await insertRow(service, 'user_preferences', {
    user_id: users.learner.id,
    text_size: 'large',
  });
  const chatSession = await insertRow<{ id: string }>(service, 'chat_sessions', {
    user_id: users.learner.id,
    mode: 'study',
    course_id: course.id,
    title: 'The respiratory system',
  });
  const chatMessage = await insertRow<{ id: number }>(service, 'chat_messages', {
    session_id: chatSession.id,
    user_id: users.learner.id,
    sender: 'learner',
    content: 'I think it is nitrogen',
  });
  const teachingLogEntry = await insertRow<{ id: number }>(service, 'coach_teaching_log', {
    session_id: chatSession.id,
    user_id: users.learner.id,
    course_id: course.id,
    question_id: question.id,
    approach: 'misconception',
    move: 'misconception:0',
    learner_answer: 'b',
    verdict: 'incorrect',
  });
  const note = await insertRow<{ id: string }>(service, 'notes', {
    user_id: users.learner.id,
    course_id: course.id,
    title: 'Gas exchange',
    body: 'Oxygen diffuses from the alveoli into the blood.',
  });
  const adaptJob = await insertRow<{ id: string }>(service, 'adapt_jobs', {
    owner_id: users.instructor.id,
    organization_id: orgA.id,
    title: 'Respiratory reader',
    source_format: 'txt',
    source_name: 'reader.txt',
  });
  await insertRow(service, 'adapt_job_stages', { job_id: adaptJob.id, stage: 1, name: 'extract' });
  // The course's live room (decision 0310): a chat message of the learner, an open poll the
  // learner answered, the learner's raised hand, and the deactivated learner muted.
  const liveMessage = await insertRow<{ id: string }>(service, 'live_messages', {
    course_id: course.id,
    user_id: users.learner.id,
    body: 'Is the diaphragm a muscle?',
  });
  const liveQuestion = await insertRow<{ id: string }>(service, 'live_questions', {
    course_id: course.id,
    created_by: users.instructor.id,
    kind: 'poll',
    prompt: 'Which gas do the alveoli take up?',
    choices: ['Oxygen', 'Nitrogen'],
  });
  const liveAnswer = await insertRow<{ id: string }>(service, 'live_answers', {
    question_id: liveQuestion.id,
    course_id: course.id,
    user_id: users.learner.id,
    choice: 0,
  });
  await insertRow(service, 'live_hands', { course_id: course.id, user_id: users.learner.id });
  await insertRow(service, 'live_mutes', {
    course_id: course.id,
    user_id: users.deactivated.id,
    muted_by: users.instructor.id,
  });
  const filePath = `${course.id}/reading.pdf`;
  const upload = await service.storage
    .from('course-files')
    .upload(filePath, new Blob(['%PDF-1.4 sample']), { contentType: 'application/pdf' });
  if (upload.error) throw new Error(`fixture file: ${upload.error.message}`);

  // Deactivated after enrolling: the rows stay, the access goes.
  const deactivate = await service
    .from('memberships')
    .update({ active: false })
    .eq('user_id', users.deactivated.id)
    .eq('organization_id', orgA.id);
  if (deactivate.error) throw new Error(`fixture deactivate: ${deactivate.error.message}`);

  const anon = server.anon();
  return {
    users,
    client: (actor) => (actor === 'anon' ? anon : users[actor].client),
    async signInAgain(actor) {
      const user = users[actor];
      // A client of its own: signing in stores the session in the client that signed in.
      const signIn = await server.anon().auth.signInWithPassword({
        email: user.email,
        password: user.password,
      });
      if (signIn.error) throw new Error(`sign in ${actor} again: ${signIn.error.message}`);
      user.token = signIn.data.session.access_token;
      user.client = testClient(server, server.anonKey, user.token);
    },
    service,
    orgA: orgA.id,
    orgB: orgB.id,
    boardArts: arts.id,
    boardScience: science.id,
    course: course.id,
    course2: course2.id,
    personalCourse: personalCourse.id,
    module: module.id,
    lesson: lesson.id,
    lesson2: lesson2.id,
    question: question.id,
    question2: question2.id,
    numericQuestion: numericQuestion.id,
    shortQuestion: shortQuestion.id,
    assessment: assessment.id,
    assignment: assignment.id,
    attempt: (attempt.data as { id: string }).id,
    highlight: highlight.id,
    liveMessage: liveMessage.id,
    liveQuestion: liveQuestion.id,
    liveAnswer: liveAnswer.id,
    chatSession: chatSession.id,
    chatMessage: chatMessage.id,
    teachingLogEntry: teachingLogEntry.id,
    post: post.id,
    filePath,
    goal: goal.id,
    ownGoal: ownGoal.id,
    deck: deck.id,
    card: card.id,
    review: review.id,
    note: note.id,
    adaptJob: adaptJob.id,
  };
}

/** A review as the flashcards function logs it (only the service role may write one). */
export function flashcardReviewRow(
  userId: string,
  cardId: string,
  deckId: string,
): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    user_id: userId,
    card_id: cardId,
    deck_id: deckId,
    rating: 3,
    state_before: 0,
    state_after: 1,
    stability_before: 0,
    stability_after: 2.3,
    difficulty_before: 0,
    difficulty_after: 2.1,
    due_before: now,
    due_after: now,
    card_before: {},
  };
}
