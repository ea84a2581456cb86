/**
 * Stage 3: the accessible lesson. Simplifies every section towards the chosen reading grade
 * (measured before and after) and shapes it for the learner profile: ADHD gets one idea per
 * screen, a checklist and time estimates; dyslexia gets short sentences (the HTML export adds
 * the typography and read-aloud); English language learners get plain words, a glossary with
 * simple definitions and, when asked, a translation.
 */
import type { AiProvider } from '../../ai/provider';
import type {
  AccessibleLesson,
  AccessibleSection,
  GlossaryEntry,
  LearnerProfile,
  StageReport,
  StructuredLesson,
} from '../lesson';
import { LEARNER_PROFILE_LABELS } from '../lesson';
import { markdownToPlainText, splitSentences, wordsOf } from '../text';
import { measureReadability } from './readability';
import { plainWords, simplifyMarkdown, splitLongSentence } from './simplify';
import { chooseTranslator, languageName, NoTranslatorError } from './translate';

export interface AccessibleOptions {
  profile: LearnerProfile;
  /** The Flesch–Kincaid grade to simplify towards (1–16). */
  targetGrade: number;
  /** ISO 639-1 language to translate into, or null for none. */
  translateTo: string | null;
}

export interface AccessibleDeps {
  ai: AiProvider | null;
  apertiumBinary?: string;
}

interface ProfileRules {
  /** Reading pace for the time estimates. */
  wordsPerMinute: number;
  /** Longest sentence the profile wants, when it asks for short sentences. */
  maxSentenceWords?: number;
  screens: 'one-idea' | 'whole';
}

export const PROFILE_RULES: Record<LearnerProfile, ProfileRules> = {
  none: { wordsPerMinute: 200, screens: 'whole' },
  adhd: { wordsPerMinute: 150, maxSentenceWords: 20, screens: 'one-idea' },
  dyslexia: { wordsPerMinute: 130, maxSentenceWords: 15, screens: 'whole' },
  ell: { wordsPerMinute: 120, maxSentenceWords: 18, screens: 'whole' },
};

/** Longest screen, in words, before a paragraph is cut into several (ADHD). */
const SCREEN_WORDS = 60;
const CHECKLIST_WORDS = 10;

export function lessonMarkdownBody(sections: ReadonlyArray<{ heading: string; body: string }>) {
  return sections.map((s) => `## ${s.heading}\n\n${s.body}`).join('\n\n');
}

/** Blocks of Markdown separated by blank lines, a long paragraph cut at sentence ends. */
export function oneIdeaScreens(body: string): string[] {
  const screens: string[] = [];
  for (const block of body.split(/\n\s*\n/)) {
    const text = block.trim();
    if (!text) continue;
    const isProse = !/^\s*([-*+]|\d{1,3}[.)]|\||>|#|```|~~~)/m.test(text);
    if (!isProse || wordsOf(text).length <= SCREEN_WORDS) {
      screens.push(text);
      continue;
    }
    let current: string[] = [];
    let count = 0;
    for (const sentence of splitSentences(text.replace(/\n/g, ' '))) {
      const words = wordsOf(sentence).length;
      if (count > 0 && count + words > SCREEN_WORDS) {
        screens.push(current.join(' '));
        current = [];
        count = 0;
      }
      current.push(sentence);
      count += words;
    }
    if (current.length) screens.push(current.join(' '));
  }
  return screens.length ? screens : [body];
}

/** A checklist item for a screen: its first sentence, shortened. */
export function checklistItem(screen: string): string {
  const first = splitSentences(markdownToPlainText(screen))[0] ?? '';
  const words = first.split(/\s+/).filter(Boolean);
  return words.length <= CHECKLIST_WORDS
    ? first.replace(/[.!?:]$/, '')
    : `${words
        .slice(0, CHECKLIST_WORDS)
        .join(' ')
        .replace(/[,;:]$/, '')}…`;
}

export function readingMinutes(markdown: string, wordsPerMinute: number): number {
  return Math.max(1, Math.ceil(wordsOf(markdownToPlainText(markdown)).length / wordsPerMinute));
}

/** A definition in plain words, one short sentence. */
export function simpleDefinition(definition: string, protectedTerms: readonly string[]): string {
  const first = splitSentences(definition)[0] ?? definition;
  const plain = plainWords(first, protectedTerms).text;
  let short = splitLongSentence(plain, 12)[0] ?? plain;
  // A definition's trailing qualifier ("…, principally in the red and blue parts") can go.
  const clause = /,\s/.exec(short);
  if (wordsOf(short).length > 12 && clause && wordsOf(short.slice(0, clause.index)).length >= 4) {
    short = short.slice(0, clause.index);
  }
  return /[.!?]$/.test(short) ? short : `${short}.`;
}

export async function makeAccessible(
  lesson: StructuredLesson,
  options: AccessibleOptions,
  deps: AccessibleDeps,
): Promise<{ lesson: AccessibleLesson; report: StageReport }> {
  const started = performance.now();
  const rules = PROFILE_RULES[options.profile];
  const terms = lesson.glossary.map((g) => g.term);
  const changes: string[] = [];
  const notices: string[] = [];
  let replacements = 0;
  let splits = 0;

  const sections: AccessibleSection[] = lesson.sections.map((section) => {
    const simplified = simplifyMarkdown(section.body, {
      targetGrade: options.targetGrade,
      maxSentenceWords: rules.maxSentenceWords,
      protectedTerms: terms,
    });
    const heading = plainWords(section.heading, terms);
    replacements += simplified.replacements.length + heading.replacements.length;
    splits += simplified.sentencesSplit;
    const screens =
      rules.screens === 'one-idea' ? oneIdeaScreens(simplified.markdown) : [simplified.markdown];
    return {
      ...section,
      heading: heading.text,
      body: simplified.markdown,
      minutes: readingMinutes(simplified.markdown, rules.wordsPerMinute),
      screens,
      checklist: options.profile === 'adhd' ? screens.map(checklistItem) : [],
    };
  });

  const objectives = lesson.objectives.map((objective) => ({
    ...objective,
    text: plainWords(objective.text, [...terms, objective.verb]).text,
  }));

  const glossary: GlossaryEntry[] =
    options.profile === 'ell'
      ? lesson.glossary.map((entry) => ({
          ...entry,
          simpleDefinition: simpleDefinition(entry.definition, terms),
        }))
      : lesson.glossary;

  const before = measureReadability(lessonMarkdownBody(lesson.sections));
  const after = measureReadability(lessonMarkdownBody(sections));
  changes.push(`Reading grade ${before.grade} → ${after.grade} (target ${options.targetGrade}).`);
  if (after.grade > options.targetGrade) {
    notices.push(
      `The reading grade is ${after.grade}, above the target ${options.targetGrade}: the ` +
        'built-in simplifier changes words and splits sentences but does not rewrite ideas; ' +
        'edit the sections or configure a model provider to go further.',
    );
  }
  if (replacements > 0) changes.push(`Replaced ${replacements} phrases with plainer words.`);
  if (splits > 0) changes.push(`Split ${splits} long sentences.`);
  if (options.profile !== 'none') {
    changes.push(`Shaped for the ${LEARNER_PROFILE_LABELS[options.profile]} profile.`);
  }
  if (options.profile === 'adhd') {
    const screenCount = sections.reduce((n, s) => n + s.screens.length, 0);
    changes.push(`Cut into ${screenCount} screens of one idea each, with a checklist.`);
  }
  if (options.profile === 'ell' && glossary.length > 0) {
    changes.push(`Added simple definitions to ${glossary.length} glossary terms.`);
  }

  let translation: AccessibleLesson['translation'] = null;
  if (options.translateTo) {
    try {
      const translator = await chooseTranslator(options.translateTo, deps);
      const texts = [lesson.title, ...sections.flatMap((s) => [s.heading, s.body])];
      const translated = await translator.translate(texts, options.translateTo);
      translation = {
        language: options.translateTo,
        engine: translator.engine,
        title: translated[0]!,
        sections: sections.map((s, i) => ({
          id: s.id,
          heading: translated[1 + 2 * i]!,
          body: translated[2 + 2 * i]!,
        })),
      };
      changes.push(
        `Translated into ${languageName(options.translateTo)} with ${translator.engine.label}.`,
      );
    } catch (error) {
      if (!(error instanceof NoTranslatorError)) throw error;
      notices.push(error.message);
    }
  }

  return {
    lesson: {
      ...lesson,
      objectives,
      glossary,
      profile: options.profile,
      readingLevel: { target: options.targetGrade, before, after },
      sections,
      translation,
      notices,
    },
    report: {
      stage: 'accessible',
      engine: { kind: 'offline', label: 'Built-in simplifier (retext-simplify, Flesch–Kincaid)' },
      durationMs: Math.round(performance.now() - started),
      changes,
    },
  };
}
