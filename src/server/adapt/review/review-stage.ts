/**
 * Stage 4: the reviewed lesson. The language checks over the title and every section, and the
 * fidelity gate over the whole lesson against the extracted source.
 */
import type { AccessibleLesson, ExtractedText, ReviewedLesson, StageReport } from '../lesson';
import { questionPrompt, expectedAnswer } from '../lesson';
import { reviewMarkdown } from './checks';
import { checkFidelity, keyFactsOf } from './fidelity';

/** Everything a learner reads in the lesson, for the fidelity gate. */
export function lessonText(lesson: AccessibleLesson): string {
  return [
    lesson.title,
    ...lesson.objectives.map((o) => o.text),
    ...lesson.sections.flatMap((s) => [s.heading, s.body]),
    ...lesson.glossary.flatMap((g) => [g.term, g.definition, g.simpleDefinition ?? '']),
    ...lesson.quiz.flatMap((q) => [questionPrompt(q), expectedAnswer(q)]),
  ].join('\n');
}

export function reviewLesson(
  lesson: AccessibleLesson,
  source: ExtractedText,
): { reviewed: ReviewedLesson; report: StageReport } {
  const started = performance.now();
  const target = lesson.readingLevel.target;
  const findings = [
    ...reviewMarkdown(lesson.title, null, target),
    ...lesson.sections.flatMap((s) => reviewMarkdown(s.body, s.id, target)),
  ];
  const facts = keyFactsOf(
    source,
    lesson.glossary.map((g) => g.term),
  );
  const fidelity = checkFidelity(facts, lessonText(lesson));
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(f.check, (counts.get(f.check) ?? 0) + 1);
  const changes = [
    findings.length === 0
      ? 'No language findings.'
      : `${findings.length} findings: ${[...counts].map(([check, n]) => `${n} ${check.replace('retext-', '')}`).join(', ')}.`,
    fidelity.passed
      ? `All ${facts.length} key facts of the source are present.`
      : `${fidelity.lost.length} of ${facts.length} key facts of the source are missing: ${fidelity.lost.map((f) => f.text).join(', ')}.`,
  ];
  return {
    reviewed: { lesson, findings, fidelity },
    report: {
      stage: 'review',
      engine: { kind: 'offline', label: 'Built-in review (retext checks, fidelity gate)' },
      durationMs: Math.round(performance.now() - started),
      changes,
    },
  };
}
