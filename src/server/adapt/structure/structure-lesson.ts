/**
 * Stage 2, structured lesson: the built-in engine always drafts it; a configured model then
 * improves the objectives, headings, glossary definitions and quiz (decision 0502). The
 * sections' text and source positions stay the built-in engine's, so the model cannot drop or
 * invent source material, and a reply that is not the JSON asked for leaves the draft as it
 * was. The report says which engine produced what.
 */
import { z } from 'zod';
import { AiFailedError, OFFLINE_ENGINE, type AiProvider, type EngineInfo } from '../../ai/provider';
import {
  extractedPlainText,
  type ExtractedText,
  type QuizQuestion,
  type StructuredLesson,
} from '../lesson';
import { buildOfflineLesson } from './offline-structure';

export interface StructureResult {
  lesson: StructuredLesson;
  engine: EngineInfo;
  changes: string[];
}

const BLOOM_VERBS = new Set([
  'define',
  'list',
  'identify',
  'name',
  'state',
  'recall',
  'describe',
  'explain',
  'summarise',
  'summarize',
  'classify',
  'compare',
  'contrast',
  'apply',
  'calculate',
  'solve',
  'demonstrate',
  'use',
  'analyse',
  'analyze',
  'distinguish',
  'examine',
  'sequence',
  'evaluate',
  'justify',
  'assess',
  'argue',
  'design',
  'construct',
  'create',
  'propose',
  'predict',
  'interpret',
]);

const text = (max: number) => z.string().trim().min(1).max(max);

const improvementSchema = z.object({
  objectives: z
    .array(z.object({ verb: text(30), text: text(300) }))
    .min(2)
    .max(8),
  headings: z.record(z.string(), text(120)).optional(),
  glossary: z
    .array(z.object({ term: text(80), definition: text(600) }))
    .max(30)
    .optional(),
  quiz: z
    .array(
      z.discriminatedUnion('kind', [
        z.object({
          kind: z.literal('multiple_choice'),
          sectionId: z.string().nullable().optional(),
          prompt: text(600),
          choices: z.array(text(300)).min(3).max(5),
          answerIndex: z.number().int().min(0).max(4),
          difficulty: z.number().int().min(1).max(3).optional(),
        }),
        z.object({
          kind: z.literal('cloze'),
          sectionId: z.string().nullable().optional(),
          text: text(600).refine((t) => t.split('____').length === 2, 'one ____ gap'),
          answer: text(120),
          difficulty: z.number().int().min(1).max(3).optional(),
        }),
        z.object({
          kind: z.literal('short_answer'),
          sectionId: z.string().nullable().optional(),
          prompt: text(600),
          referenceAnswer: text(2000),
          keyPoints: z.array(text(300)).min(2).max(5),
          difficulty: z.number().int().min(1).max(3).optional(),
        }),
      ]),
    )
    .min(3)
    .max(20),
});

type Improvement = z.infer<typeof improvementSchema>;

const SYSTEM = `You improve a structured lesson drafted from course material. Answer with one JSON object and nothing else:
{"objectives":[{"verb":"explain","text":"Explain ..."}],
 "headings":{"<section id>":"<better heading>"},
 "glossary":[{"term":"...","definition":"..."}],
 "quiz":[{"kind":"multiple_choice","sectionId":"<id>","prompt":"...","choices":["...","...","..."],"answerIndex":0,"difficulty":1},
         {"kind":"cloze","sectionId":"<id>","text":"A sentence with one ____ gap.","answer":"...","difficulty":2},
         {"kind":"short_answer","sectionId":"<id>","prompt":"...","referenceAnswer":"...","keyPoints":["...","..."],"difficulty":3}]}
Rules: each objective starts with a measurable Bloom verb (define, explain, compare, calculate, apply, analyse, evaluate, ...). Use only facts in the material. Distractors must be plausible and drawn from the material. Key points are the facts a full answer states.`;

function parseJson(reply: string): unknown {
  const start = reply.indexOf('{');
  const end = reply.lastIndexOf('}');
  if (start < 0 || end <= start) throw new Error('the reply holds no JSON object');
  return JSON.parse(reply.slice(start, end + 1));
}

const CHOICE_IDS = ['a', 'b', 'c', 'd', 'e'];

function applyImprovement(draft: StructuredLesson, improvement: Improvement): StructuredLesson {
  const sectionIds = new Set(draft.sections.map((s) => s.id));
  const sectionOf = (id: string | null | undefined) => (id && sectionIds.has(id) ? id : null);
  const objectives = improvement.objectives
    .map((o) => ({ verb: o.verb.toLowerCase(), text: o.text }))
    .filter((o) => BLOOM_VERBS.has(o.verb) && o.text.toLowerCase().startsWith(o.verb));
  const quiz: QuizQuestion[] = improvement.quiz.flatMap((q, index): QuizQuestion[] => {
    const id = `${q.kind.replace('_', '-')}-${index + 1}`;
    const difficulty = (q.difficulty ?? 2) as 1 | 2 | 3;
    if (q.kind === 'multiple_choice') {
      if (q.answerIndex >= q.choices.length) return [];
      return [
        {
          kind: 'multiple_choice',
          id,
          sectionId: sectionOf(q.sectionId),
          prompt: q.prompt,
          choices: q.choices.map((t, i) => ({ id: CHOICE_IDS[i]!, text: t })),
          answer: CHOICE_IDS[q.answerIndex]!,
          keyPoints: [q.choices[q.answerIndex]!],
          difficulty,
        },
      ];
    }
    if (q.kind === 'cloze') {
      return [
        {
          kind: 'cloze',
          id,
          sectionId: sectionOf(q.sectionId),
          text: q.text,
          answer: q.answer,
          keyPoints: [q.answer],
          difficulty,
        },
      ];
    }
    return [
      {
        kind: 'short_answer',
        id,
        sectionId: sectionOf(q.sectionId),
        prompt: q.prompt,
        referenceAnswer: q.referenceAnswer,
        keyPoints: q.keyPoints,
        difficulty,
      },
    ];
  });
  return {
    ...draft,
    objectives: objectives.length >= 2 ? objectives : draft.objectives,
    sections: draft.sections.map((s) => ({
      ...s,
      heading: improvement.headings?.[s.id] ?? s.heading,
    })),
    glossary:
      improvement.glossary && improvement.glossary.length > 0
        ? [...improvement.glossary].sort((a, b) => a.term.localeCompare(b.term))
        : draft.glossary,
    quiz: quiz.length >= 3 ? quiz : draft.quiz,
  };
}

function describe(lesson: StructuredLesson): string {
  const kinds = (kind: QuizQuestion['kind']) => lesson.quiz.filter((q) => q.kind === kind).length;
  return `${lesson.sections.length} section${lesson.sections.length === 1 ? '' : 's'}, ${lesson.objectives.length} objectives, ${lesson.glossary.length} glossary terms, a quiz of ${lesson.quiz.length} (${kinds('multiple_choice')} multiple choice, ${kinds('cloze')} cloze, ${kinds('short_answer')} short answer).`;
}

export async function structureLesson(
  extracted: ExtractedText,
  options: { ai: AiProvider; title: string; language: string },
): Promise<StructureResult> {
  const draft = buildOfflineLesson(extracted, options);
  const offline: StructureResult = {
    lesson: draft,
    engine: OFFLINE_ENGINE,
    changes: [`Built-in engine: ${describe(draft)}`],
  };
  if (!options.ai.configured('general')) return offline;

  const material = extractedPlainText(extracted).slice(0, 24_000);
  let reply: { text: string; engine: EngineInfo };
  try {
    reply = await options.ai.generate({
      route: 'general',
      system: SYSTEM,
      messages: [
        {
          role: 'user',
          content: `Material:\n${material}\n\nDraft lesson (JSON):\n${JSON.stringify({
            title: draft.title,
            objectives: draft.objectives,
            sections: draft.sections.map((s) => ({ id: s.id, heading: s.heading })),
            glossary: draft.glossary,
            quiz: draft.quiz,
          })}`,
        },
      ],
      maxOutputTokens: 4000,
    });
  } catch (error) {
    if (!(error instanceof AiFailedError)) throw error;
    return {
      ...offline,
      changes: [...offline.changes, `${error.message}; the built-in draft is kept.`],
    };
  }
  let improvement: Improvement;
  try {
    improvement = improvementSchema.parse(parseJson(reply.text));
  } catch (error) {
    const reason =
      error instanceof z.ZodError ? 'it did not match the lesson shape' : (error as Error).message;
    return {
      ...offline,
      changes: [
        ...offline.changes,
        `${reply.engine.label} answered, but ${reason}; the built-in draft is kept.`,
      ],
    };
  }
  const lesson = applyImprovement(draft, improvement);
  const improved = [
    lesson.objectives !== draft.objectives ? 'objectives' : null,
    lesson.sections.some((s, i) => s.heading !== draft.sections[i]!.heading) ? 'headings' : null,
    lesson.glossary !== draft.glossary ? 'glossary' : null,
    lesson.quiz !== draft.quiz ? 'quiz' : null,
  ].filter((x): x is string => x !== null);
  return {
    lesson,
    engine: reply.engine,
    changes: [
      ...offline.changes,
      improved.length > 0
        ? `${reply.engine.label} rewrote the ${improved.join(', ')}: ${describe(lesson)}`
        : `${reply.engine.label} answered; none of its changes passed the checks, so the built-in draft is kept.`,
    ],
  };
}
