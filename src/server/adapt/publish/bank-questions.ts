/**
 * An adapted lesson's quiz as bank questions of the learning app (db/app 0321), so published
 * questions work with the quizzes, the coach's hints and the answer evaluator: multiple
 * choice stays multiple choice (its distractors become the misconceptions), a cloze gap and a
 * short answer become `short_text` with the expected text and key points; the hints, worked
 * example and prerequisite refresher come from the lesson itself.
 */
import type { BankQuestion } from '../../learning/course-content';
import type { AccessibleLesson, QuizQuestion } from '../lesson';
import { expectedAnswer, questionPrompt } from '../lesson';

export const PUBLISH_MODULE_SLUG = 'le-adapt';

export function slugify(text: string, max = 80): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '');
  return slug || 'lesson';
}

function clip(text: string, max: number): string {
  const t = text.trim();
  return t.length <= max ? t : `${t.slice(0, max - 1).trimEnd()}…`;
}

function unique(items: string[]): string[] {
  const seen = new Set<string>();
  return items.filter((i) => {
    const key = i.trim().toLowerCase();
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function firstLetters(answer: string): string {
  const word = answer.trim().split(/\s+/)[0] ?? answer;
  return word.slice(0, Math.max(1, Math.min(3, Math.floor(word.length / 2))));
}

/** 2–4 refresher questions: the glossary's terms first, then the lesson's other questions. */
function refresherQuestions(lesson: AccessibleLesson, exclude: QuizQuestion) {
  const fromGlossary = lesson.glossary.map((g) => ({
    type: 'short_text' as const,
    prompt: clip(`What does “${g.term}” mean?`, 20000),
    answer: { text: clip(g.simpleDefinition ?? g.definition, 5000) },
  }));
  const fromQuiz = lesson.quiz
    .filter((q) => q !== exclude)
    .map((q) => ({
      type: 'short_text' as const,
      prompt: clip(questionPrompt(q), 20000),
      answer: { text: clip(expectedAnswer(q), 5000) },
    }));
  const titled = {
    type: 'short_text' as const,
    prompt: 'What is the lesson this question comes from called?',
    answer: { text: clip(lesson.title, 5000) },
  };
  const objectives = lesson.objectives.map((o) => ({
    type: 'short_text' as const,
    prompt: 'Name one thing this lesson teaches.',
    answer: { text: clip(o.text, 5000) },
  }));
  return [...fromGlossary, ...fromQuiz, ...objectives.slice(0, 1), titled].slice(0, 4);
}

export function bankQuestionsOf(lesson: AccessibleLesson): BankQuestion[] {
  const lessonSlug = slugify(lesson.title, 40);
  return lesson.quiz.map((q) => {
    const section = lesson.sections.find((s) => s.id === q.sectionId) ?? lesson.sections[0];
    const heading = section?.heading ?? lesson.title;
    const expected = expectedAnswer(q);
    // The bank needs two key points; the section's name fills in only when the question has
    // fewer, since the evaluator counts every point an answer leaves out.
    const given = unique([...q.keyPoints, expected]);
    const keyPoints = (
      given.length >= 2 ? given : unique([...given, `From the section “${heading}”`])
    )
      .slice(0, 5)
      .map((p) => clip(p, 1000));
    const explanation = q.explanation?.trim() ? `\n\n${q.explanation.trim()}` : '';
    const common = {
      id: slugify(`${lessonSlug}-${q.id}`, 80),
      module: PUBLISH_MODULE_SLUG,
      key_points: keyPoints,
      worked_example: clip(
        `**Answer:** ${expected}${explanation}\n\nA complete answer mentions: ${keyPoints.join('; ')}.`,
        20000,
      ),
      difficulty: q.difficulty,
      prerequisite: {
        concept: clip(heading, 200),
        refresher: clip(section?.body ?? lesson.title, 20000),
        questions: refresherQuestions(lesson, q),
      },
    };
    const rereading = `Reread the section “${clip(heading, 150)}”.`;
    if (q.kind === 'multiple_choice' && q.choices.length >= 3 && q.choices.length <= 5) {
      const distractors = q.choices.filter((c) => c.id !== q.answer).slice(0, 3);
      return {
        ...common,
        type: 'multiple_choice',
        prompt: clip(q.prompt, 20000),
        choices: q.choices.map((c) => ({ id: clip(c.id, 40), text: clip(c.text, 2000) })),
        answer: { choice: q.answer },
        hints: [rereading, `It is not “${clip(distractors[0]?.text ?? '', 100)}”.`],
        misconceptions: distractors.map((d) => ({
          misconception: clip(`Thinking the answer is “${d.text}”.`, 2000),
          feedback: clip(`“${d.text}” is not right: the answer is “${expected}”.`, 2000),
          choice: d.id,
        })),
      };
    }
    return {
      ...common,
      type: 'short_text',
      prompt: clip(q.kind === 'cloze' ? `Fill in the gap: ${q.text}` : questionPrompt(q), 20000),
      answer: { text: clip(expected, 5000) },
      hints: [rereading, `The answer begins with “${firstLetters(expected)}…”.`],
      misconceptions: [
        {
          misconception: 'Leaving out a key point.',
          feedback: clip(`A complete answer mentions: ${keyPoints.join('; ')}.`, 2000),
        },
      ],
    };
  });
}
