/**
 * The Markdown export: the reviewed lesson as one document (objectives, sections with their
 * reading times and checklists, glossary, quiz, then the answers), readable as it stands and
 * importable by any Markdown-based course tool.
 */
import type { AccessibleLesson } from '../lesson';
import { LEARNER_PROFILE_LABELS, expectedAnswer, questionPrompt } from '../lesson';
import { sectionMarkdown } from './audio';

export function lessonMarkdown(lesson: AccessibleLesson): string {
  const out: string[] = [`# ${lesson.title}`, ''];
  const minutes = lesson.sections.reduce((n, s) => n + s.minutes, 0);
  out.push(
    `_${LEARNER_PROFILE_LABELS[lesson.profile]} · reading grade ${lesson.readingLevel.after.grade} · about ${minutes} minutes_`,
    '',
  );
  if (lesson.objectives.length) {
    out.push('## What you will learn', '', ...lesson.objectives.map((o) => `- ${o.text}`), '');
  }
  for (const section of lesson.sections) {
    out.push(`## ${section.heading}`, '', `_About ${section.minutes} min_`, '');
    if (section.checklist.length) {
      out.push(...section.checklist.map((item) => `- [ ] ${item}`), '');
    }
    out.push(
      section.screens.length > 1 ? section.screens.join('\n\n---\n\n') : sectionMarkdown(section),
      '',
    );
  }
  if (lesson.glossary.length) {
    out.push('## Glossary', '');
    for (const entry of lesson.glossary) {
      out.push(`**${entry.term}**: ${entry.simpleDefinition ?? entry.definition}`);
      if (entry.simpleDefinition) out.push(`  _${entry.definition}_`);
      out.push('');
    }
  }
  if (lesson.quiz.length) {
    out.push('## Quiz', '');
    lesson.quiz.forEach((q, i) => {
      out.push(`${i + 1}. ${questionPrompt(q)}`);
      if (q.kind === 'multiple_choice') {
        for (const choice of q.choices) out.push(`   - ${choice.id}) ${choice.text}`);
      }
      out.push('');
    });
    out.push('### Answers', '');
    lesson.quiz.forEach((q, i) => {
      const points = q.kind === 'short_answer' ? ` (key points: ${q.keyPoints.join('; ')})` : '';
      out.push(`${i + 1}. ${expectedAnswer(q)}${points}`);
      if (q.explanation) out.push(`   ${q.explanation}`);
    });
    out.push('');
  }
  if (lesson.translation) {
    out.push(
      `## Translation (${lesson.translation.language})`,
      '',
      `### ${lesson.translation.title}`,
      '',
    );
    for (const s of lesson.translation.sections) out.push(`#### ${s.heading}`, '', s.body, '');
  }
  return (
    out
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}
