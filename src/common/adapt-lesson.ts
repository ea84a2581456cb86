/**
 * The shapes LE Adapt's four stages hand to each other (issue 14): extracted text with its
 * source positions (stage 1), the structured lesson (stage 2), the accessible lesson (stage 3),
 * the reviewed lesson with its findings and fidelity gate (stage 4), and the report each stage
 * leaves for the insights panel. Types and small pure helpers only: the stages, the job, the
 * exports and the LE Adapt screens all import from here, so a stored stage output reads the
 * same everywhere (it lives in common/ so the browser can read the stored JSON with it; the
 * server's `src/server/adapt/lesson.ts` re-exports it).
 */

/** Which engine produced a stage: the same shape as the model-provider layer's EngineInfo. */
export interface EngineInfo {
  kind: 'offline' | 'model';
  /** "Built-in offline engine", or "Provider B · gpt-4o-mini". */
  label: string;
  provider?: 'A' | 'B';
  model?: string;
}

// ---------------------------------------------------------------------------------------------
// Stage 1: extracted text

/** Where a piece of text came from, so a reviewer can find it in the original. */
export type SourcePosition =
  | { kind: 'page'; page: number }
  | { kind: 'sco'; sco: string; title: string; order: number; href: string }
  | { kind: 'paragraph'; paragraph: number }
  | { kind: 'prompt' };

export type SourceFormat = 'pdf' | 'docx' | 'txt' | 'scorm' | 'prompt';

export interface ExtractedBlock {
  text: string;
  source: SourcePosition;
}

export interface ExtractedText {
  format: SourceFormat;
  /** The document's own title when it has one (PDF metadata, the manifest's organization). */
  title: string | null;
  /** In reading order: pages in order, SCOs in the manifest's order. */
  blocks: ExtractedBlock[];
}

// ---------------------------------------------------------------------------------------------
// Stage 2: structured lesson

export interface LearningObjective {
  /** The measurable verb the objective starts with ("explain", "calculate"). */
  verb: string;
  /** The whole objective, e.g. "Calculate the area of a triangle from its base and height." */
  text: string;
}

export interface LessonSection {
  /** Stable within the lesson (a slug), so review edits and findings can point at it. */
  id: string;
  heading: string;
  /** Markdown, rendered only through the safe Markdown renderer. */
  body: string;
  sources: SourcePosition[];
}

/** A key term and its glossary entry. */
export interface GlossaryEntry {
  term: string;
  definition: string;
  /** A plain-words definition for English language learners (stage 3 fills it). */
  simpleDefinition?: string;
}

export interface QuizChoice {
  id: string;
  text: string;
}

interface QuizQuestionBase {
  /** Stable within the lesson (a slug); it becomes the bank question's slug when published. */
  id: string;
  /** The section the question checks, when it checks one. */
  sectionId: string | null;
  /** What a complete answer mentions; the answer evaluator (coach-evaluate) grades with them. */
  keyPoints: string[];
  difficulty: 1 | 2 | 3;
  /** Why the answer is right, shown after answering; a reviewer writes it in the quiz builder. */
  explanation?: string;
}

export interface MultipleChoiceQuestion extends QuizQuestionBase {
  kind: 'multiple_choice';
  prompt: string;
  /** The correct choice and its plausible distractors, 3–5 in all (the bank's limit). */
  choices: QuizChoice[];
  answer: string;
}

/** A sentence with one gap, written `____` in the text. */
export interface ClozeQuestion extends QuizQuestionBase {
  kind: 'cloze';
  text: string;
  answer: string;
}

export interface ShortAnswerQuestion extends QuizQuestionBase {
  kind: 'short_answer';
  prompt: string;
  referenceAnswer: string;
}

export type QuizQuestion = MultipleChoiceQuestion | ClozeQuestion | ShortAnswerQuestion;

export const CLOZE_GAP = '____';

export interface StructuredLesson {
  title: string;
  /** BCP 47, "en" for the lessons the built-in engines make. */
  language: string;
  objectives: LearningObjective[];
  sections: LessonSection[];
  glossary: GlossaryEntry[];
  quiz: QuizQuestion[];
}

// ---------------------------------------------------------------------------------------------
// Stage 3: accessible lesson

export const LEARNER_PROFILES = ['none', 'adhd', 'dyslexia', 'ell'] as const;
export type LearnerProfile = (typeof LEARNER_PROFILES)[number];

export const LEARNER_PROFILE_LABELS: Record<LearnerProfile, string> = {
  none: 'No profile',
  adhd: 'ADHD',
  dyslexia: 'Dyslexia',
  ell: 'English language learner',
};

/** A US school grade (Flesch–Kincaid); 6–8 is plain language, 12+ is academic. */
export type ReadingGrade = number;

export interface ReadabilityScore {
  grade: ReadingGrade;
  words: number;
  sentences: number;
  syllables: number;
}

export interface ReadingLevelReport {
  target: ReadingGrade;
  before: ReadabilityScore;
  after: ReadabilityScore;
}

export interface AccessibleSection extends LessonSection {
  /** Reading time at the profile's pace, rounded up. */
  minutes: number;
  /** One idea per screen (ADHD); one screen holding the whole body otherwise. Markdown. */
  screens: string[];
  /** Steps to tick off (ADHD); empty otherwise. */
  checklist: string[];
}

export interface Translation {
  /** BCP 47 of the translation, e.g. "es". */
  language: string;
  engine: EngineInfo;
  title: string;
  sections: Array<{ id: string; heading: string; body: string }>;
}

export interface AccessibleLesson extends Omit<StructuredLesson, 'sections'> {
  profile: LearnerProfile;
  readingLevel: ReadingLevelReport;
  sections: AccessibleSection[];
  /** Present when the ELL profile asked for one and a translator answered. */
  translation: Translation | null;
  /** What the reviewer should know: a target grade not reached, no translator configured. */
  notices: string[];
}

// ---------------------------------------------------------------------------------------------
// Stage 4: reviewed lesson

export type ReviewCheck =
  | 'retext-equality'
  | 'retext-profanities'
  | 'retext-passive'
  | 'retext-simplify'
  | 'retext-readability';

export interface ReviewFinding {
  check: ReviewCheck;
  /** What is wrong, in the checker's words. */
  message: string;
  /** Where: the section (null for the title), 1-based line and column in its Markdown. */
  place: { sectionId: string | null; line: number; column: number };
  /** The flagged words. */
  excerpt: string;
  /** The suggested fix, in words ("Use “chair” or “head” instead."). */
  suggestion: string;
  /** Words that can replace the excerpt as they stand, or null when rewording is needed. */
  replacement: string | null;
}

export type KeyFactKind = 'number' | 'date' | 'name' | 'term';

export interface KeyFact {
  kind: KeyFactKind;
  text: string;
  source: SourcePosition | null;
}

export interface FidelityReport {
  /** True when every key fact of the source is still in the lesson. */
  passed: boolean;
  facts: KeyFact[];
  lost: KeyFact[];
}

export interface ReviewedLesson {
  lesson: AccessibleLesson;
  findings: ReviewFinding[];
  fidelity: FidelityReport;
}

// ---------------------------------------------------------------------------------------------
// The insights panel

export type StageName = 'extract' | 'structure' | 'accessible' | 'review';

export const STAGE_LABELS: Record<StageName, string> = {
  extract: 'Extracted text',
  structure: 'Structured lesson',
  accessible: 'Accessible lesson',
  review: 'Reviewed lesson',
};

/** What one stage did: the insights panel shows one per stage. */
export interface StageReport {
  stage: StageName;
  /** The built-in engine (kind 'offline', e.g. "Built-in engine · retext") or the model. */
  engine: EngineInfo;
  durationMs: number;
  /** What it changed, one sentence each ("Reading grade 11.2 → 7.9"). */
  changes: string[];
}

// ---------------------------------------------------------------------------------------------
// Helpers

export function isLearnerProfile(value: unknown): value is LearnerProfile {
  return typeof value === 'string' && (LEARNER_PROFILES as readonly string[]).includes(value);
}

/** "page 3", "SCO 2 (Safety rules)", "paragraph 14", "the course prompt". */
export function describeSource(source: SourcePosition): string {
  switch (source.kind) {
    case 'page':
      return `page ${source.page}`;
    case 'sco':
      return `SCO ${source.order} (${source.title})`;
    case 'paragraph':
      return `paragraph ${source.paragraph}`;
    case 'prompt':
      return 'the course prompt';
  }
}

/** All extracted text in reading order, blocks separated by a blank line. */
export function extractedPlainText(extracted: ExtractedText): string {
  return extracted.blocks.map((b) => b.text).join('\n\n');
}

/**
 * The learning app's bank question type each quiz kind becomes (db/app 0321): a cloze gap and
 * a short answer are both `short_text`, graded against the expected text and key points.
 */
export function bankQuestionType(question: QuizQuestion): 'multiple_choice' | 'short_text' {
  return question.kind === 'multiple_choice' ? 'multiple_choice' : 'short_text';
}

/** The question as a learner reads it (a cloze shows its gap). */
export function questionPrompt(question: QuizQuestion): string {
  return question.kind === 'cloze' ? question.text : question.prompt;
}

/** The expected answer as text: the correct choice's text, the gap's word, the reference. */
export function expectedAnswer(question: QuizQuestion): string {
  switch (question.kind) {
    case 'multiple_choice':
      return question.choices.find((c) => c.id === question.answer)?.text ?? question.answer;
    case 'cloze':
      return question.answer;
    case 'short_answer':
      return question.referenceAnswer;
  }
}
