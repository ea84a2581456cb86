/**
 * The course content format of `content/courses/<slug>/` (course.json, questions.json and one
 * Markdown file per lesson), validated with the same limits the database enforces (decision
 * 0100), so a course that reads here also loads there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const slug = z
  .string()
  .max(80)
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'lower-case words joined by hyphens');
const text = (max: number) => z.string().trim().min(1).max(max);

const choice = z.strictObject({ id: text(40), text: text(2000) });
const choices = z.array(choice).min(3).max(5);

/** The three question types and their answer shapes, shared by bank and refresher questions. */
const answerShapes = [
  z.strictObject({
    type: z.literal('multiple_choice'),
    prompt: text(20000),
    choices,
    answer: z.strictObject({ choice: text(40) }),
  }),
  z.strictObject({
    type: z.literal('numeric'),
    prompt: text(20000),
    answer: z.strictObject({
      value: z.number(),
      tolerance: z.number().min(0),
      unit: z.string().max(40),
    }),
  }),
  z.strictObject({
    type: z.literal('short_text'),
    prompt: text(20000),
    answer: z.strictObject({ text: text(5000) }),
  }),
] as const;

function choiceIdsAreValid(
  question: { type: string; choices?: { id: string }[]; answer: unknown },
  ctx: z.RefinementCtx,
) {
  if (question.type !== 'multiple_choice' || !question.choices) return;
  const ids = question.choices.map((c) => c.id);
  if (new Set(ids).size !== ids.length) {
    ctx.addIssue({ code: 'custom', path: ['choices'], message: 'choice ids must be unique' });
  }
  const answer = (question.answer as { choice: string }).choice;
  if (!ids.includes(answer)) {
    ctx.addIssue({
      code: 'custom',
      path: ['answer', 'choice'],
      message: `answer names "${answer}", which is not one of the choices`,
    });
  }
}

const prerequisiteQuestion = z
  .discriminatedUnion('type', answerShapes)
  .superRefine((q, ctx) => choiceIdsAreValid(q, ctx));

const bankFields = {
  id: slug,
  module: slug,
  key_points: z.array(text(1000)).min(2).max(5),
  hints: z.array(text(2000)).min(2).max(4),
  worked_example: text(20000),
  misconceptions: z
    .array(
      z.strictObject({
        misconception: text(2000),
        feedback: text(2000),
        choice: text(40).optional(),
      }),
    )
    .min(1)
    .max(3),
  difficulty: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  prerequisite: z.strictObject({
    concept: text(200),
    refresher: text(20000),
    questions: z.array(prerequisiteQuestion).min(2).max(4),
  }),
};

export const bankQuestionSchema = z
  .discriminatedUnion('type', [
    answerShapes[0].extend(bankFields),
    answerShapes[1].extend(bankFields),
    answerShapes[2].extend(bankFields),
  ])
  .superRefine((q, ctx) => {
    choiceIdsAreValid(q, ctx);
    if (q.type !== 'multiple_choice') return;
    const ids = new Set(q.choices.map((c) => c.id));
    q.misconceptions.forEach((m, i) => {
      if (m.choice !== undefined && !ids.has(m.choice)) {
        ctx.addIssue({
          code: 'custom',
          path: ['misconceptions', i, 'choice'],
          message: `names "${m.choice}", which is not one of the choices`,
        });
      }
    });
  });
export type BankQuestion = z.infer<typeof bankQuestionSchema>;

export const courseManifestSchema = z.strictObject({
  slug,
  title: text(200),
  subject: text(120),
  description: text(5000),
  board: z.enum(['arts', 'science']),
  sample: z.literal(true),
  modules: z
    .array(
      z.strictObject({
        slug,
        title: text(200),
        summary: z.string().max(2000),
        lessons: z
          .array(
            z.strictObject({
              slug,
              title: text(200),
              kind: z.literal('markdown'),
              estimated_minutes: z.number().int().min(1).max(600),
              file: z
                .string()
                .regex(/^lessons\/[a-z0-9-]+\/[a-z0-9-]+\.md$/, 'lessons/<module>/<lesson>.md'),
            }),
          )
          .min(1),
      }),
    )
    .min(1),
});
export type CourseManifest = z.infer<typeof courseManifestSchema>;

export interface CourseContent {
  manifest: CourseManifest;
  /** Lesson bodies by `<module slug>/<lesson slug>`. */
  bodies: Map<string, string>;
  questions: BankQuestion[];
}

/** Thrown with every problem of one course directory, each naming its file and field. */
export class CourseContentError extends Error {
  constructor(
    public readonly dir: string,
    public readonly problems: string[],
  ) {
    super(`Course content in ${dir} is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'CourseContentError';
  }
}

const MAX_LESSON_BYTES = 1024 * 1024;

function readJson(file: string, problems: string[]): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    problems.push(`${path.basename(file)}: ${(error as Error).message}`);
    return undefined;
  }
}

function issues(file: string, error: z.ZodError): string[] {
  return error.issues.map(
    (issue) => `${file} ${issue.path.join('.') || '(root)'}: ${issue.message}`,
  );
}

/** Reads and checks one course directory; throws CourseContentError listing every problem. */
export function readCourseDirectory(dir: string): CourseContent {
  const problems: string[] = [];
  const manifestResult = courseManifestSchema.safeParse(
    readJson(path.join(dir, 'course.json'), problems),
  );
  const questionsResult = z
    .array(bankQuestionSchema)
    .safeParse(readJson(path.join(dir, 'questions.json'), problems));
  if (problems.length > 0) throw new CourseContentError(dir, problems);
  if (!manifestResult.success) problems.push(...issues('course.json', manifestResult.error));
  if (!questionsResult.success) problems.push(...issues('questions.json', questionsResult.error));
  if (!manifestResult.success || !questionsResult.success) {
    throw new CourseContentError(dir, problems);
  }
  const manifest = manifestResult.data;
  const questions = questionsResult.data;

  if (manifest.slug !== path.basename(dir)) {
    problems.push(`course.json slug: "${manifest.slug}" differs from the directory name`);
  }
  const moduleSlugs = new Set<string>();
  const bodies = new Map<string, string>();
  for (const module of manifest.modules) {
    if (moduleSlugs.has(module.slug)) problems.push(`course.json: module "${module.slug}" twice`);
    moduleSlugs.add(module.slug);
    const lessonSlugs = new Set<string>();
    for (const lesson of module.lessons) {
      if (lessonSlugs.has(lesson.slug)) {
        problems.push(`course.json: lesson "${lesson.slug}" twice in module "${module.slug}"`);
      }
      lessonSlugs.add(lesson.slug);
      const file = path.join(dir, lesson.file);
      if (!fs.existsSync(file)) {
        problems.push(`${lesson.file}: missing`);
        continue;
      }
      const body = fs.readFileSync(file, 'utf8');
      if (Buffer.byteLength(body) > MAX_LESSON_BYTES) problems.push(`${lesson.file}: over 1 MB`);
      if (body.trim() === '') problems.push(`${lesson.file}: empty`);
      bodies.set(`${module.slug}/${lesson.slug}`, body);
    }
  }
  const questionIds = new Set<string>();
  for (const question of questions) {
    if (questionIds.has(question.id)) problems.push(`questions.json: id "${question.id}" twice`);
    questionIds.add(question.id);
    if (!moduleSlugs.has(question.module)) {
      problems.push(
        `questions.json ${question.id}: module "${question.module}" is not in course.json`,
      );
    }
  }
  if (problems.length > 0) throw new CourseContentError(dir, problems);
  return { manifest, bodies, questions };
}

export function defaultCoursesDir(): string {
  return path.resolve('content/courses');
}

/** Every course directory under `root` (those with a course.json), in name order. */
export function listCourseDirectories(root = defaultCoursesDir()): string[] {
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(root, entry.name))
    .filter((dir) => fs.existsSync(path.join(dir, 'course.json')))
    .sort();
}
