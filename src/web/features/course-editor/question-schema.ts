/**
 * A bank question's form, its rules and its row. The form keeps text as typed (numbers as
 * strings, every type's answer fields); `questionFromDraft` turns it into the input the zod
 * schema checks, with the same names as the form's fields, so each issue lands under its
 * field (`choices.2.text`, `hints.1`, `prerequisite.questions.0.value`). The rules are the
 * database's (learning.valid_answer, string_array_between, valid_misconceptions,
 * valid_prerequisite in db/app/0321), plus a few that make a question usable (no empty
 * misconception or feedback).
 */
import { z } from 'zod';

export type QuestionType = 'multiple_choice' | 'numeric' | 'short_text';

export const typeLabels: Record<QuestionType, string> = {
  multiple_choice: 'Multiple choice',
  numeric: 'Numeric',
  short_text: 'Short text',
};

export const difficultyLabels: Record<1 | 2 | 3, string> = {
  1: 'Basic',
  2: 'Intermediate',
  3: 'Advanced',
};

export const CHOICE_IDS = ['a', 'b', 'c', 'd', 'e'] as const;

export interface ChoiceDraft {
  id: string;
  text: string;
}

/** The answer part, shared by a bank question and a prerequisite's basic questions. */
export interface AnswerDraft {
  prompt: string;
  type: QuestionType;
  choices: ChoiceDraft[];
  correctChoice: string;
  value: string;
  tolerance: string;
  unit: string;
  referenceText: string;
}

export interface MisconceptionDraft {
  misconception: string;
  feedback: string;
  /** A wrong choice this feedback answers, or '' for none. */
  choice: string;
}

export interface QuestionDraft extends AnswerDraft {
  keyPoints: string[];
  hints: string[];
  workedExample: string;
  misconceptions: MisconceptionDraft[];
  difficulty: string;
  concept: string;
  refresher: string;
  basics: AnswerDraft[];
}

export function emptyAnswer(type: QuestionType = 'multiple_choice'): AnswerDraft {
  return {
    prompt: '',
    type,
    choices: CHOICE_IDS.slice(0, 3).map((id) => ({ id, text: '' })),
    correctChoice: '',
    value: '',
    tolerance: '0',
    unit: '',
    referenceText: '',
  };
}

export function emptyQuestion(): QuestionDraft {
  return {
    ...emptyAnswer(),
    keyPoints: ['', ''],
    hints: ['', ''],
    workedExample: '',
    misconceptions: [{ misconception: '', feedback: '', choice: '' }],
    difficulty: '1',
    concept: '',
    refresher: '',
    basics: [emptyAnswer('short_text'), emptyAnswer('short_text')],
  };
}

const text = (what: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, `Write the ${what}.`)
    .max(max, `The ${what} is limited to ${max.toLocaleString('en-GB')} characters.`);

const answerInput = z.object({
  prompt: text('question', 20_000),
  type: z.enum(['multiple_choice', 'numeric', 'short_text'], { error: 'Choose a type.' }),
  choices: z.array(z.object({ id: z.string(), text: z.string() })),
  correctChoice: z.string(),
  // NaN until typed; only a numeric question needs them (checkAnswer).
  value: z.union([z.number(), z.nan()]),
  tolerance: z.union([z.number(), z.nan()]),
  unit: z.string().trim().max(40, 'A unit is limited to 40 characters.'),
  referenceText: z.string().trim(),
});

type AnswerInput = z.infer<typeof answerInput>;

/** The rules of the answer part that depend on the type, as issues on the form's paths. */
function checkAnswer(answer: AnswerInput, ctx: z.RefinementCtx, at: (string | number)[]) {
  const issue = (path: (string | number)[], message: string) =>
    ctx.addIssue({ code: 'custom', path: [...at, ...path], message });
  if (answer.type === 'multiple_choice') {
    if (answer.choices.length < 3 || answer.choices.length > 5) {
      issue(['choices'], 'Give 3 to 5 choices.');
    }
    answer.choices.forEach((choice, i) => {
      if (!choice.text.trim()) issue(['choices', i, 'text'], 'Write this choice, or remove it.');
    });
    if (!answer.choices.some((c) => c.id === answer.correctChoice)) {
      issue(['correctChoice'], 'Mark the correct choice.');
    }
  } else if (answer.type === 'numeric') {
    if (!Number.isFinite(answer.value)) issue(['value'], 'Enter the correct value as a number.');
    if (!Number.isFinite(answer.tolerance) || answer.tolerance < 0) {
      issue(['tolerance'], 'Enter a tolerance of 0 or more (0: exactly the value).');
    }
  } else if (!answer.referenceText) {
    issue(['referenceText'], 'Write the reference answer the instructor grades against.');
  }
}

const stringList = (what: string, low: number, high: number) =>
  z
    .array(z.string().trim().min(1, `Write this ${what}, or remove it.`))
    .min(low, `Give ${low} to ${high} ${what}s.`)
    .max(high, `Give ${low} to ${high} ${what}s.`);

export const questionSchema = answerInput
  .extend({
    keyPoints: stringList('key point', 2, 5),
    hints: stringList('hint', 2, 4),
    workedExample: text('worked example', 20_000),
    misconceptions: z
      .array(
        z.object({
          misconception: text('misconception', 2000),
          feedback: text('feedback', 2000),
          choice: z.string().nullable(),
        }),
      )
      .min(1, 'Give 1 to 3 misconceptions.')
      .max(3, 'Give 1 to 3 misconceptions.'),
    difficulty: z.union([z.literal(1), z.literal(2), z.literal(3)], {
      error: 'Choose a difficulty.',
    }),
    prerequisite: z.object({
      concept: text('prerequisite concept', 200),
      refresher: text('refresher', 20_000),
      questions: z
        .array(answerInput)
        .min(2, 'Give 2 to 4 basic questions.')
        .max(4, 'Give 2 to 4 basic questions.'),
    }),
  })
  .superRefine((question, ctx) => {
    checkAnswer(question, ctx, []);
    question.prerequisite.questions.forEach((basic, i) =>
      checkAnswer(basic, ctx, ['prerequisite', 'questions', i]),
    );
    question.misconceptions.forEach((m, i) => {
      if (m.choice === null) return;
      if (question.type !== 'multiple_choice' || !question.choices.some((c) => c.id === m.choice)) {
        ctx.addIssue({
          code: 'custom',
          path: ['misconceptions', i, 'choice'],
          message: 'Choose one of the question’s choices, or none.',
        });
      } else if (m.choice === question.correctChoice) {
        ctx.addIssue({
          code: 'custom',
          path: ['misconceptions', i, 'choice'],
          message: 'A misconception belongs to a wrong choice, not the correct one.',
        });
      }
    });
  });

export type QuestionInput = z.infer<typeof questionSchema>;

const toNumber = (value: string) => (value.trim() === '' ? NaN : Number(value));

function answerFromDraft(draft: AnswerDraft) {
  return {
    prompt: draft.prompt,
    type: draft.type,
    choices: draft.choices,
    correctChoice: draft.correctChoice,
    value: toNumber(draft.value),
    tolerance: toNumber(draft.tolerance),
    unit: draft.unit,
    referenceText: draft.referenceText,
  };
}

/** The form's state as the input the schema checks. */
export function questionFromDraft(draft: QuestionDraft): unknown {
  return {
    ...answerFromDraft(draft),
    keyPoints: draft.keyPoints,
    hints: draft.hints,
    workedExample: draft.workedExample,
    // A choice chosen before the type changed is no longer shown, so it no longer counts.
    misconceptions: draft.misconceptions.map((m) => ({
      misconception: m.misconception,
      feedback: m.feedback,
      choice: draft.type === 'multiple_choice' ? m.choice || null : null,
    })),
    difficulty: Number(draft.difficulty),
    prerequisite: {
      concept: draft.concept,
      refresher: draft.refresher,
      questions: draft.basics.map(answerFromDraft),
    },
  };
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

function answerColumns(answer: AnswerInput): { choices: Json; answer: Json } {
  switch (answer.type) {
    case 'multiple_choice':
      return {
        choices: answer.choices.map((c) => ({ id: c.id, text: c.text.trim() })),
        answer: { choice: answer.correctChoice },
      };
    case 'numeric':
      return {
        choices: null,
        answer: { value: answer.value, tolerance: answer.tolerance, unit: answer.unit },
      };
    default:
      return { choices: null, answer: { text: answer.referenceText } };
  }
}

/** The columns of `questions` for a checked question (not its ids or slug). */
export function questionRow(question: QuestionInput) {
  return {
    type: question.type,
    prompt: question.prompt,
    ...answerColumns(question),
    key_points: question.keyPoints,
    hints: question.hints,
    worked_example: question.workedExample,
    misconceptions: question.misconceptions.map((m) =>
      m.choice
        ? { misconception: m.misconception, feedback: m.feedback, choice: m.choice }
        : { misconception: m.misconception, feedback: m.feedback },
    ),
    difficulty: question.difficulty,
    prerequisite: {
      concept: question.prerequisite.concept,
      refresher: question.prerequisite.refresher,
      questions: question.prerequisite.questions.map((q) => {
        const { choices, answer } = answerColumns(q);
        return choices === null
          ? { prompt: q.prompt, type: q.type, answer }
          : { prompt: q.prompt, type: q.type, choices, answer };
      }),
    },
  };
}

export type QuestionRow = ReturnType<typeof questionRow>;

interface StoredAnswer {
  prompt: string;
  type: QuestionType;
  choices?: { id: string; text: string }[] | null;
  answer: { choice?: string; value?: number; tolerance?: number; unit?: string; text?: string };
}

function answerDraftOf(stored: StoredAnswer): AnswerDraft {
  const empty = emptyAnswer(stored.type);
  return {
    ...empty,
    prompt: stored.prompt,
    type: stored.type,
    choices: stored.choices?.map((c) => ({ id: c.id, text: c.text })) ?? empty.choices,
    correctChoice: stored.answer.choice ?? '',
    value: stored.answer.value === undefined ? '' : String(stored.answer.value),
    tolerance: stored.answer.tolerance === undefined ? '0' : String(stored.answer.tolerance),
    unit: stored.answer.unit ?? '',
    referenceText: stored.answer.text ?? '',
  };
}

export interface StoredQuestion extends StoredAnswer {
  key_points: string[];
  hints: string[];
  worked_example: string;
  misconceptions: { misconception: string; feedback: string; choice?: string }[];
  difficulty: number;
  prerequisite: { concept: string; refresher: string; questions: StoredAnswer[] };
}

/** A stored question as the form's state. */
export function draftOfQuestion(stored: StoredQuestion): QuestionDraft {
  return {
    ...answerDraftOf(stored),
    keyPoints: [...stored.key_points],
    hints: [...stored.hints],
    workedExample: stored.worked_example,
    misconceptions: stored.misconceptions.map((m) => ({
      misconception: m.misconception,
      feedback: m.feedback,
      choice: m.choice ?? '',
    })),
    difficulty: String(stored.difficulty),
    concept: stored.prerequisite.concept,
    refresher: stored.prerequisite.refresher,
    basics: stored.prerequisite.questions.map(answerDraftOf),
  };
}

/** The next unused choice id (a–e), or null when there are five. */
export function nextChoiceId(choices: ChoiceDraft[]): string | null {
  return CHOICE_IDS.find((id) => !choices.some((c) => c.id === id)) ?? null;
}

/** A stable name for a new question within its course: a few words of the prompt and a tag. */
export function questionSlug(prompt: string, tag: string): string {
  const words = prompt
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
    .slice(0, 6)
    .join('-')
    .slice(0, 60)
    .replace(/-+$/, '');
  return words ? `${words}-${tag}` : `question-${tag}`;
}
