/**
 * LE Adapt's quiz builder (issue 14, decision 0517): the rules an edited quiz question must
 * meet, checked with zod by the server before it saves and by the screen before it sends, so a
 * reviewer reads the same sentence in both places. Each problem names the question (and the
 * option) it is about and says what to change.
 */
import { z } from 'zod';
import { COACH_TEXT_MAX_BYTES } from './coach';
import { CLOZE_GAP, type QuizQuestion } from './adapt-lesson';

export const QUIZ_LIMITS = {
  questions: 30,
  stem: 600,
  option: 300,
  minOptions: 3,
  maxOptions: 5,
  clozeAnswer: 120,
  referenceAnswer: 2000,
  keyPoint: 300,
  keyPoints: 5,
  explanation: 1000,
} as const;

export const QUIZ_KINDS = ['multiple_choice', 'cloze', 'short_answer'] as const;
export type QuizKind = (typeof QUIZ_KINDS)[number];

export const QUIZ_KIND_LABELS: Record<QuizKind, string> = {
  multiple_choice: 'Multiple choice',
  cloze: 'Fill in the gap',
  short_answer: 'Short answer',
};

/** A question id: a slug, stable within the lesson (it becomes the bank question's slug). */
export const QUIZ_ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

// Generous outer caps so a huge value is refused cheaply; the readable limits are checked below.
const loose = z.string().max(20_000);
const base = {
  id: z
    .string()
    .regex(QUIZ_ID_PATTERN, 'a question id is lower-case words joined by hyphens')
    .max(60),
  sectionId: z.string().max(200).nullable().default(null),
  keyPoints: z.array(loose).max(20).default([]),
  difficulty: z.union([z.literal(1), z.literal(2), z.literal(3)]).default(2),
  explanation: loose.optional(),
};

const shapeSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({
      ...base,
      kind: z.literal('multiple_choice'),
      prompt: loose,
      choices: z.array(z.object({ id: z.string().min(1).max(40), text: loose })).max(20),
      answer: z.string().max(40),
    }),
    z.object({ ...base, kind: z.literal('cloze'), text: loose, answer: loose }),
    z.object({ ...base, kind: z.literal('short_answer'), prompt: loose, referenceAnswer: loose }),
  ],
  { error: 'a question\'s kind is "multiple_choice", "cloze" or "short_answer"' },
);

type QuestionShape = z.infer<typeof shapeSchema>;

export interface QuizProblem {
  /** The field the problem is in, for the screen to show it there. */
  field: 'prompt' | 'text' | 'choices' | 'answer' | 'referenceAnswer' | 'keyPoints' | 'explanation';
  message: string;
}

/** "the question" or "option 3": over the limit, or empty. */
function lengthProblem(
  field: QuizProblem['field'],
  what: string,
  value: string,
  max: number,
  required = true,
): QuizProblem[] {
  const text = value.trim();
  if (required && text === '') return [{ field, message: `${what} is empty` }];
  if (text.length > max) {
    return [{ field, message: `${what} is over ${max} characters (it has ${text.length})` }];
  }
  return [];
}

const sameText = (a: string, b: string) =>
  a.trim().toLocaleLowerCase('en') === b.trim().toLocaleLowerCase('en');

/** Everything wrong with one question, in words; empty when it can be saved. */
export function quizQuestionProblems(question: QuestionShape): QuizProblem[] {
  const problems: QuizProblem[] = [];
  switch (question.kind) {
    case 'multiple_choice': {
      problems.push(...lengthProblem('prompt', 'the question', question.prompt, QUIZ_LIMITS.stem));
      const { choices } = question;
      if (choices.length < QUIZ_LIMITS.minOptions || choices.length > QUIZ_LIMITS.maxOptions) {
        problems.push({
          field: 'choices',
          message: `a multiple-choice question needs ${QUIZ_LIMITS.minOptions} to ${QUIZ_LIMITS.maxOptions} options (it has ${choices.length})`,
        });
      }
      choices.forEach((choice, i) => {
        problems.push(
          ...lengthProblem('choices', `option ${i + 1}`, choice.text, QUIZ_LIMITS.option),
        );
        const first = choices.findIndex((other) => sameText(other.text, choice.text));
        if (choice.text.trim() !== '' && first < i) {
          problems.push({
            field: 'choices',
            message: `options ${first + 1} and ${i + 1} are the same (“${choice.text.trim()}”)`,
          });
        }
        if (choices.findIndex((other) => other.id === choice.id) < i) {
          problems.push({ field: 'choices', message: `two options have the id “${choice.id}”` });
        }
      });
      if (!choices.some((choice) => choice.id === question.answer)) {
        problems.push({ field: 'answer', message: 'choose which option is correct' });
      }
      break;
    }
    case 'cloze': {
      problems.push(...lengthProblem('text', 'the sentence', question.text, QUIZ_LIMITS.stem));
      const gaps = question.text.split(CLOZE_GAP).length - 1;
      if (question.text.trim() !== '' && gaps !== 1) {
        problems.push({
          field: 'text',
          message: `the sentence needs exactly one gap written ${CLOZE_GAP} (it has ${gaps})`,
        });
      }
      problems.push(
        ...lengthProblem(
          'answer',
          'the word for the gap',
          question.answer,
          QUIZ_LIMITS.clozeAnswer,
        ),
      );
      break;
    }
    case 'short_answer':
      problems.push(...lengthProblem('prompt', 'the question', question.prompt, QUIZ_LIMITS.stem));
      problems.push(
        ...lengthProblem(
          'referenceAnswer',
          'the reference answer',
          question.referenceAnswer,
          QUIZ_LIMITS.referenceAnswer,
        ),
      );
      if (question.keyPoints.every((point) => point.trim() === '')) {
        problems.push({
          field: 'keyPoints',
          message: 'a short answer needs at least one key point for the evaluator to grade with',
        });
      }
      break;
  }
  const points = question.keyPoints.filter((point) => point.trim() !== '');
  if (points.length > QUIZ_LIMITS.keyPoints) {
    problems.push({
      field: 'keyPoints',
      message: `at most ${QUIZ_LIMITS.keyPoints} key points (it has ${points.length})`,
    });
  }
  points.forEach((point, i) => {
    problems.push(...lengthProblem('keyPoints', `key point ${i + 1}`, point, QUIZ_LIMITS.keyPoint));
  });
  problems.push(
    ...lengthProblem(
      'explanation',
      'the explanation',
      question.explanation ?? '',
      QUIZ_LIMITS.explanation,
      false,
    ),
  );
  return problems;
}

/** The question as stored: trimmed, blank key points dropped, an empty explanation left out. */
function tidy(question: QuestionShape): QuizQuestion {
  const { explanation, keyPoints, ...rest } = question;
  const common = {
    keyPoints: keyPoints.map((p) => p.trim()).filter((p) => p !== ''),
    ...(explanation?.trim() ? { explanation: explanation.trim() } : {}),
  };
  switch (rest.kind) {
    case 'multiple_choice':
      return {
        ...rest,
        ...common,
        prompt: rest.prompt.trim(),
        choices: rest.choices.map((c) => ({ id: c.id, text: c.text.trim() })),
      };
    case 'cloze':
      return { ...rest, ...common, text: rest.text.trim(), answer: rest.answer.trim() };
    case 'short_answer':
      return {
        ...rest,
        ...common,
        prompt: rest.prompt.trim(),
        referenceAnswer: rest.referenceAnswer.trim(),
      };
  }
}

/** One question (the grade preview's, or the one being edited). */
export const quizQuestionSchema = shapeSchema
  .superRefine((question, ctx) => {
    for (const problem of quizQuestionProblems(question)) {
      ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
    }
  })
  .transform(tidy);

/** A whole quiz as the builder saves it: 1–30 valid questions with distinct ids. */
export const quizSchema = z
  .array(shapeSchema)
  .min(1, 'the quiz needs at least one question')
  .max(QUIZ_LIMITS.questions, `a quiz has at most ${QUIZ_LIMITS.questions} questions`)
  .superRefine((questions, ctx) => {
    questions.forEach((question, i) => {
      for (const problem of quizQuestionProblems(question)) {
        ctx.addIssue({
          code: 'custom',
          path: [i, problem.field],
          message: `Question ${i + 1}: ${problem.message}`,
        });
      }
      if (questions.findIndex((other) => other.id === question.id) < i) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'id'],
          message: `Question ${i + 1}: another question already has the id “${question.id}”`,
        });
      }
    });
  })
  .transform((questions) => questions.map(tidy));

export const quizSaveSchema = z.object({
  /** The version the reviewer edited (0 for the generated quiz): a stale one is refused. */
  version: z.number().int().min(0),
  questions: quizSchema,
});
export type QuizSave = z.input<typeof quizSaveSchema>;

export const quizResetSchema = z.object({ version: z.number().int().min(1) });

// Tabs and line breaks are ordinary in an answer; other control characters are not (the
// coach's rule, decision 0223).
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

export const previewAnswerSchema = z.union([
  z.object({ choice: z.string().min(1, 'choose an option').max(40) }),
  z.object({
    text: z
      .string()
      .refine((t) => t.trim() !== '', 'the answer is empty: type an answer to preview its grade')
      .refine(
        (t) => new TextEncoder().encode(t).length <= COACH_TEXT_MAX_BYTES,
        `the answer is over ${COACH_TEXT_MAX_BYTES / 1024} KB`,
      )
      .refine((t) => !CONTROL_CHARACTERS.test(t), 'the answer contains control characters'),
  }),
]);

export const quizPreviewSchema = z.object({
  question: quizQuestionSchema,
  answer: previewAnswerSchema,
});
export type QuizPreviewRequest = z.input<typeof quizPreviewSchema>;

/** The grade preview's answer: the verdict the learning app would give, and why. */
export interface QuizGradePreview {
  verdict: 'correct' | 'partially_correct' | 'incorrect';
  feedback: string;
  /** Key points the answer did not make (short-text answers). */
  missing: string[];
  /** The evaluator that judged a text answer; null for a choice (the answer key decides). */
  engine: { kind: 'offline' | 'model'; label: string } | null;
  /** How the published question is graded: by its answer key, or by the answer evaluator. */
  gradedAs: 'multiple_choice' | 'short_text';
}

/** Sentences for a person: each problem of a failed parse once, in order. */
export function quizProblemMessages(error: z.ZodError): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const issue of error.issues) {
    const message =
      issue.code === 'custom' || issue.path.length === 0
        ? issue.message
        : `${issue.path.map(String).join('.')}: ${issue.message}`;
    if (!seen.has(message)) {
      seen.add(message);
      out.push(message);
    }
  }
  return out;
}

/** A problem as a sentence: "Question 2: option 3 is empty." */
export function asSentence(message: string): string {
  const text = message.trim();
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
