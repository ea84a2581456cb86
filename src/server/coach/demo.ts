/**
 * The public coach demo on the AI Study Coach page (decision 0224): sample short-text questions
 * from the sample courses in content/courses, judged by the offline evaluator only. It reads
 * no account and writes nothing, so a visitor's answer is never stored; a model is never
 * called, so the demo costs nothing and answers the same with or without one configured.
 */
import type { Evaluation } from '../../common/coach';
import {
  defaultCoursesDir,
  listCourseDirectories,
  readCourseDirectory,
} from '../learning/course-content';
import { evaluateOffline } from './evaluate';

export interface DemoQuestion {
  id: string;
  course: string;
  prompt: string;
}

interface DemoEntry extends DemoQuestion {
  reference: string;
  keyPoints: string[];
}

let loaded: Map<string, DemoEntry> | undefined;

/** The sample courses' short-text questions written in plain prose (no code blocks). */
function demoQuestions(root = defaultCoursesDir()): Map<string, DemoEntry> {
  if (loaded) return loaded;
  const entries = new Map<string, DemoEntry>();
  for (const dir of listCourseDirectories(root)) {
    const content = readCourseDirectory(dir);
    const picked = content.questions.filter(
      (question) => question.type === 'short_text' && !question.prompt.includes('```'),
    );
    for (const question of picked) {
      const slug = dir.split(/[\\/]/).at(-1)!;
      entries.set(`${slug}/${question.id}`, {
        id: `${slug}/${question.id}`,
        course: content.manifest.title,
        prompt: question.prompt,
        reference: (question.answer as { text: string }).text,
        keyPoints: question.key_points,
      });
    }
  }
  loaded = entries;
  return entries;
}

export function listDemoQuestions(): DemoQuestion[] {
  return [...demoQuestions().values()].map(({ id, course, prompt }) => ({ id, course, prompt }));
}

/** Judges a visitor's answer to a demo question; undefined when no such question exists. */
export function evaluateDemoAnswer(questionId: string, answer: string): Evaluation | undefined {
  const question = demoQuestions().get(questionId);
  if (!question) return undefined;
  return evaluateOffline({
    question: question.prompt,
    referenceAnswer: question.reference,
    keyPoints: question.keyPoints,
    answer,
  });
}
