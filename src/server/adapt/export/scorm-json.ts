/**
 * The spec's "SCORM JSON": the SCORM package's content as one JSON document (decision 0512),
 * for systems that import lessons by API rather than by zip: the manifest's organisation and
 * SCO, the mastery score, the lesson as laid out, and the quiz with answers and key points.
 */
import type { AccessibleLesson } from '../lesson';
import { bankQuestionType } from '../lesson';
import type { SentenceTiming } from './audio';
import { MASTERY_SCORE } from './scorm-runtime';

export const SCORM_JSON_FORMAT = 'lyceum.scorm-json/1';

export interface ScormJson {
  format: typeof SCORM_JSON_FORMAT;
  identifier: string;
  title: string;
  language: string;
  scorm: {
    versions: Array<'1.2' | '2004'>;
    organization: { identifier: string; title: string };
    items: Array<{ identifier: string; title: string; href: string; masteryScore: number }>;
  };
  profile: AccessibleLesson['profile'];
  readingLevel: AccessibleLesson['readingLevel'];
  estimatedMinutes: number;
  objectives: AccessibleLesson['objectives'];
  sections: Array<{
    id: string;
    heading: string;
    body: string;
    minutes: number;
    screens: string[];
    checklist: string[];
  }>;
  glossary: AccessibleLesson['glossary'];
  quiz: Array<AccessibleLesson['quiz'][number] & { bankType: 'multiple_choice' | 'short_text' }>;
  audio: { href: string; durationSeconds: number; sentences: SentenceTiming[] } | null;
  translation: AccessibleLesson['translation'];
}

export function scormJson(
  lesson: AccessibleLesson,
  options: {
    identifier: string;
    audio?: { href: string; durationSeconds: number; sentences: SentenceTiming[] } | null;
  },
): ScormJson {
  const id = options.identifier.replace(/[^A-Za-z0-9-]/g, '-');
  return {
    format: SCORM_JSON_FORMAT,
    identifier: `lyceum-${id}`,
    title: lesson.title,
    language: lesson.language,
    scorm: {
      versions: ['1.2', '2004'],
      organization: { identifier: `org-${id}`, title: lesson.title },
      items: [
        {
          identifier: `item-${id}`,
          title: lesson.title,
          href: 'index.html',
          masteryScore: MASTERY_SCORE,
        },
      ],
    },
    profile: lesson.profile,
    readingLevel: lesson.readingLevel,
    estimatedMinutes: lesson.sections.reduce((n, s) => n + s.minutes, 0),
    objectives: lesson.objectives,
    sections: lesson.sections.map((s) => ({
      id: s.id,
      heading: s.heading,
      body: s.body,
      minutes: s.minutes,
      screens: s.screens,
      checklist: s.checklist,
    })),
    glossary: lesson.glossary,
    quiz: lesson.quiz.map((q) => ({ ...q, bankType: bankQuestionType(q) })),
    audio: options.audio ?? null,
    translation: lesson.translation,
  };
}
