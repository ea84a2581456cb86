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
import { checkFidelity, keyFactsOf } from '../review/fidelity';
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

type Part = 'objectives' | 'glossary' | 'quiz';

function partText(lesson: StructuredLesson, part: Part): string {
  if (part === 'objectives') return lesson.objectives.map((o) => o.text).join('\n');
  if (part === 'glossary')
    return lesson.glossary.map((g) => `${g.term}: ${g.definition}`).join('\n');
  return lesson.quiz
    .map((q) =>
      q.kind === 'multiple_choice'
        ? [q.prompt, ...q.choices.map((c) => c.text)].join('\n')
        : q.kind === 'cloze'
          ? `${q.text}\n${q.answer}`
          : [q.prompt, q.referenceAnswer, ...q.keyPoints].join('\n'),
    )
    .join('\n');
}

/**
 * The fidelity gate's rules applied to the model's answer before it is used, part by part: its
 * glossary must keep every key term the source defines (the gate of stage 4 tracks them), and
 * no part may state a number or date the source does not. A part that fails is refused with
 * the reason, and the built-in draft's part stays.
 */
function refusedParts(
  draft: StructuredLesson,
  improved: StructuredLesson,
  source: string,
): Partial<Record<Part, string>> {
  const refused: Partial<Record<Part, string>> = {};
  if (improved.glossary !== draft.glossary) {
    const terms = keyFactsOf(
      { format: 'txt', title: null, blocks: [] },
      draft.glossary.map((g) => g.term),
    );
    const dropped = checkFidelity(terms, partText(improved, 'glossary')).lost;
    if (dropped.length > 0) {
      refused.glossary = `its glossary left out key terms of the source (${dropped.map((f) => f.text).join(', ')})`;
    }
  }
  for (const part of ['objectives', 'glossary', 'quiz'] as const) {
    if (refused[part] || improved[part] === draft[part]) continue;
    const stated = keyFactsOf(
      {
        format: 'txt',
        title: null,
        blocks: [{ text: partText(improved, part), source: { kind: 'prompt' } }],
      },
      [],
    ).filter((f) => f.kind === 'number' || f.kind === 'date');
    const invented = checkFidelity(stated, source).lost;
    if (invented.length > 0) {
      refused[part] =
        `its ${part} ${part === 'objectives' ? 'state' : 'states'} ${invented.map((f) => f.text).join(', ')}, which the source does not`;
    }
  }
  return refused;
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
  const proposed = applyImprovement(draft, improvement);
  const refused = refusedParts(draft, proposed, extractedPlainText(extracted));
  const lesson: StructuredLesson = {
    ...proposed,
    objectives: refused.objectives ? draft.objectives : proposed.objectives,
    glossary: refused.glossary ? draft.glossary : proposed.glossary,
    quiz: refused.quiz ? draft.quiz : proposed.quiz,
  };
  const refusals = (Object.entries(refused) as Array<[Part, string]>).map(
    ([part, reason]) =>
      `${reply.engine.label}'s ${part} ${part === 'objectives' ? 'were' : 'was'} refused: ${reason}; the built-in ${part} ${part === 'objectives' ? 'are' : 'is'} kept.`,
  );
  const improved = [
    lesson.objectives !== draft.objectives ? 'objectives' : null,
    lesson.sections.some((s, i) => s.heading !== draft.sections[i]!.heading) ? 'headings' : null,
    lesson.glossary !== draft.glossary ? 'glossary' : null,
    lesson.quiz !== draft.quiz ? 'quiz' : null,
  ].filter((x): x is string => x !== null);
  return {
    lesson,
    // The stage is the model's only when some of its answer was used.
    engine: improved.length > 0 ? reply.engine : OFFLINE_ENGINE,
    changes: [
      ...offline.changes,
      improved.length > 0
        ? `${reply.engine.label} rewrote the ${improved.join(', ')}: ${describe(lesson)}`
        : `${reply.engine.label} answered; none of its changes passed the checks, so the built-in draft is kept.`,
      ...refusals,
    ],
  };
}
