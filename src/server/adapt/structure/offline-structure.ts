/**
 * Stage 2's built-in engine (decision 0502): the extracted text made into a structured lesson
 * with no network. Sections follow the source's headings (Markdown `#` lines from DOCX and
 * SCORM, heading-like lines in PDF and text), or its pages and paragraphs when it has none.
 * Key terms are what the text defines ("X is a …", "… is called X") and, failing that, its most
 * frequent content words; each glossary definition is the text's own sentence. Objectives
 * start with a measurable Bloom verb chosen by what the section does (defines, compares,
 * sequences, explains causes, calculates). The quiz draws everything from the text: multiple
 * choice whose distractors are the lesson's other key terms (or other figures of the text),
 * cloze sentences with a key term blanked, and short answers whose reference answer and key
 * points are the section's central sentences, which coach-evaluate grades against.
 */
import {
  CLOZE_GAP,
  type ExtractedText,
  type GlossaryEntry,
  type LearningObjective,
  type LessonSection,
  type QuizQuestion,
  type SourcePosition,
  type StructuredLesson,
} from '../lesson';
import {
  cleanHeading,
  contentWords,
  escapeRegExp,
  looksLikeHeading,
  sentences,
  slugify,
  STOP_WORDS,
  wordCount,
} from './text-units';

interface DraftSection {
  heading: string;
  /** The heading's level (1 for `#`); 0 for a section without a heading. */
  level: number;
  paragraphs: string[];
  sources: SourcePosition[];
}

const samePosition = (a: SourcePosition, b: SourcePosition) =>
  JSON.stringify(a) === JSON.stringify(b);

/**
 * Paragraphs of a block: lines rejoined, headings on their own. Markdown `#` lines are
 * headings; without any in the document (`guess`), heading-like lines are taken for them.
 */
function blockLines(
  text: string,
  guess: boolean,
): Array<{ heading: string | null; level: number; text: string }> {
  const out: Array<{ heading: string | null; level: number; text: string }> = [];
  for (const chunk of text.split(/\n\s*\n/)) {
    let paragraph: string[] = [];
    const flush = () => {
      if (paragraph.length > 0) out.push({ heading: null, level: 0, text: paragraph.join(' ') });
      paragraph = [];
    };
    const lines = chunk
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '');
    lines.forEach((line, index) => {
      const markdownHeading = /^#{1,6}\s+\S/.test(line);
      // A heading-like line counts when text follows it (a short last line is a paragraph's end).
      const heading =
        markdownHeading ||
        (guess &&
          looksLikeHeading(line) &&
          ((index < lines.length - 1 && paragraph.length === 0) ||
            (lines.length === 1 && wordCount(line) <= 8)));
      if (heading) {
        flush();
        const level = markdownHeading ? /^#+/.exec(line)![0].length : 2;
        out.push({ heading: cleanHeading(line), level, text: '' });
      } else {
        paragraph.push(line.replace(/^[-•*]\s+/, '- '));
        if (/^- /.test(line) || /^[•*]\s/.test(line)) flush();
      }
    });
    flush();
  }
  return out.filter((p) => p.heading !== '');
}

function draftSections(extracted: ExtractedText): DraftSection[] {
  const drafts: DraftSection[] = [];
  let current: DraftSection | null = null;
  let sawHeading = false;
  const guess = !extracted.blocks.some((b) => /^#{1,6}\s/m.test(b.text));
  for (const block of extracted.blocks) {
    let first = true;
    for (const unit of blockLines(block.text, guess)) {
      const wasFirst = first;
      first = false;
      if (unit.heading !== null) {
        sawHeading = true;
        current = {
          heading: unit.heading,
          level: unit.level,
          paragraphs: [],
          sources: [block.source],
        };
        drafts.push(current);
        continue;
      }
      if (!current) {
        current = { heading: '', level: 0, paragraphs: [], sources: [] };
        drafts.push(current);
      }
      // A paragraph cut by a page break goes on where it stopped.
      const last = current.paragraphs.at(-1);
      if (
        last !== undefined &&
        wasFirst &&
        /[\p{Ll},;–-]$/u.test(last) &&
        /^\p{Ll}/u.test(unit.text)
      ) {
        current.paragraphs[current.paragraphs.length - 1] = `${last} ${unit.text}`;
      } else current.paragraphs.push(unit.text);
      if (!current.sources.some((s) => samePosition(s, block.source))) {
        current.sources.push(block.source);
      }
    }
  }
  const withText = drafts.filter((d) => d.paragraphs.length > 0 || d.level > 0);
  if (sawHeading && withText.some((d) => d.paragraphs.length > 0)) {
    return bySize(mergeTiny(byTopLevel(withText)).filter((d) => d.paragraphs.length > 0));
  }
  return chunkUntitled(extracted);
}

/** Beyond this many sections, subsections go inside their chapter. */
const MAX_SECTIONS = 12;

/**
 * A long document's subsections become `###` headings inside their top-level section, so a
 * book gives one section per chapter rather than seventy screens of a few paragraphs.
 */
function byTopLevel(drafts: DraftSection[]): DraftSection[] {
  if (drafts.length <= MAX_SECTIONS) return drafts;
  const top = Math.min(...drafts.filter((d) => d.level > 0).map((d) => d.level));
  if (drafts.filter((d) => d.level === top).length < 2) return drafts;
  const out: DraftSection[] = [];
  for (const draft of drafts) {
    const parent = out.at(-1);
    if (draft.level === top || !parent || parent.level !== top) {
      out.push({ ...draft, paragraphs: [...draft.paragraphs], sources: [...draft.sources] });
      continue;
    }
    if (draft.heading) parent.paragraphs.push(`### ${draft.heading}`);
    parent.paragraphs.push(...draft.paragraphs);
    for (const s of draft.sources)
      if (!parent.sources.some((p) => samePosition(p, s))) parent.sources.push(s);
  }
  return out;
}

/**
 * Still too many sections (one level of headings throughout): neighbours are joined until each
 * has about 300 words, the joined ones' headings kept as `###` inside.
 */
function bySize(drafts: DraftSection[]): DraftSection[] {
  if (drafts.length <= MAX_SECTIONS * 2) return drafts;
  const out: DraftSection[] = [];
  for (const draft of drafts) {
    const parent = out.at(-1);
    if (!parent || wordCount(parent.paragraphs.join(' ')) >= 300) {
      out.push({ ...draft, paragraphs: [...draft.paragraphs], sources: [...draft.sources] });
      continue;
    }
    if (draft.heading) parent.paragraphs.push(`### ${draft.heading}`);
    parent.paragraphs.push(...draft.paragraphs);
    for (const s of draft.sources)
      if (!parent.sources.some((p) => samePosition(p, s))) parent.sources.push(s);
  }
  return out;
}

/** Sections of a few words each are merged into the next one. */
function mergeTiny(drafts: DraftSection[]): DraftSection[] {
  const out: DraftSection[] = [];
  for (const draft of drafts) {
    const previous = out.at(-1);
    if (previous && previous.paragraphs.length === 0) {
      // A heading with nothing under it (a title) gives way to the next section.
      out[out.length - 1] = draft;
    } else if (previous && wordCount(previous.paragraphs.join(' ')) < 25) {
      previous.paragraphs.push(...draft.paragraphs);
      for (const s of draft.sources)
        if (!previous.sources.some((p) => samePosition(p, s))) previous.sources.push(s);
      if (!previous.heading) previous.heading = draft.heading;
    } else {
      out.push(draft);
    }
  }
  return out;
}

/** No headings: sections of about 250 words along the source's pages or paragraphs. */
function chunkUntitled(extracted: ExtractedText): DraftSection[] {
  const out: DraftSection[] = [];
  let current: DraftSection = { heading: '', level: 0, paragraphs: [], sources: [] };
  let words = 0;
  for (const block of extracted.blocks) {
    for (const unit of blockLines(block.text, false)) {
      const text = unit.heading ?? unit.text;
      current.paragraphs.push(text);
      if (!current.sources.some((s) => samePosition(s, block.source))) {
        current.sources.push(block.source);
      }
      words += wordCount(text);
      if (words >= 250) {
        out.push(current);
        current = { heading: '', level: 0, paragraphs: [], sources: [] };
        words = 0;
      }
    }
  }
  if (current.paragraphs.length > 0) {
    const previous = out.at(-1);
    if (previous && words < 80) {
      previous.paragraphs.push(...current.paragraphs);
      for (const s of current.sources)
        if (!previous.sources.some((p) => samePosition(p, s))) previous.sources.push(s);
    } else out.push(current);
  }
  return out;
}

// ----- Key terms ----------------------------------------------------------------------------

interface Term {
  term: string;
  definition: string;
  /** Index of the section whose text defines or first uses it. */
  section: number;
  defined: boolean;
}

/** "Surfactant is a …", "The trachea (windpipe) is …", "Alveoli are …". */
const DEFINITION =
  /^(?:(?:The|A|An)\s+)?([A-Za-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s*(?:\([^)]{1,40}\)\s*)?,?\s+(?:(?:is|are)\s+(?:a|an|the|one|two|three|any)\s|refers? to\s|means\s|(?:is|are) defined as\s)/;
/** "… is called the carina.", "… are known as alveoli." */
const CALLED =
  /\b(?:is|are)\s+(?:called|known as|termed)\s+(?:an?\s+|the\s+)?["“]?([A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,2})["”]?[.,;]/;
/** "The ridge at the split is the carina." — a short noun phrase after "is the" ends it. */
const IS_THE = /\s(?:is|are)\s+(?:the|an?)\s+([a-z][\w-]*(?:\s+[a-z][\w-]*){0,1})\s*[.;]$/;

/** Words a defined term never starts with: clause openers, prepositions, determiners. */
const NOT_A_TERM_START = new Set(
  `when where while if although though because since as after before once unless until whether inside outside within without between among during each every both either neither all some most many much few several this that these those there here it its they them their he she we you his her our your which what who whom whose how why such another other only also even just still yet then thus so hence therefore however in on at by for from with into onto over under about above below near beyond across through along around behind beside`.split(
    /\s+/,
  ),
);

function plausibleTerm(term: string): boolean {
  const words = term.toLowerCase().split(/\s+/);
  if (NOT_A_TERM_START.has(words[0]!)) return false;
  if (words.some((w) => /^(it|this|that|these|those|there|they|which|what|who)$/.test(w)))
    return false;
  if (words.every((w) => STOP_WORDS.has(w))) return false;
  if (STOP_WORDS.has(words.at(-1)!)) return false;
  return term.length >= 3 && term.length <= 50;
}

/** Keeps the capital of a proper noun or an acronym; lower-cases a sentence's first word. */
function termCase(term: string): string {
  const [first, ...rest] = term.split(' ');
  if (/^[A-Z][a-z]/.test(first!) && !/[A-Z]/.test(first!.slice(1))) {
    return [first!.toLowerCase(), ...rest].join(' ');
  }
  return term;
}

function definedTerm(sentence: string): string | null {
  for (const candidate of [
    CALLED.exec(sentence)?.[1],
    IS_THE.exec(sentence)?.[1],
    DEFINITION.exec(sentence)?.[1],
  ]) {
    if (candidate && plausibleTerm(candidate.trim())) return termCase(candidate.trim());
  }
  return null;
}

function findTerms(sections: DraftSection[]): Term[] {
  const terms = new Map<string, Term>();
  sections.forEach((section, index) => {
    for (const paragraph of section.paragraphs) {
      for (const sentence of sentences(paragraph)) {
        if (wordCount(sentence) < 5 || wordCount(sentence) > 60) continue;
        const term = definedTerm(sentence);
        if (!term) continue;
        const key = term.toLowerCase();
        if (!terms.has(key))
          terms.set(key, { term, definition: sentence, section: index, defined: true });
      }
    }
  });
  if (terms.size >= 4) return [...terms.values()].slice(0, 12);

  // Few definitions: the most frequent content words and pairs fill the list, each with the
  // first sentence that uses it.
  const counts = new Map<string, number>();
  const allText = sections.map((s) => s.paragraphs.join(' ')).join(' ');
  const words = contentWords(allText).filter((w) => !/^\d/.test(w) && w.length >= 4);
  for (let i = 0; i < words.length; i++) {
    counts.set(words[i]!, (counts.get(words[i]!) ?? 0) + 1);
    if (i + 1 < words.length) {
      const pair = `${words[i]} ${words[i + 1]}`;
      counts.set(pair, (counts.get(pair) ?? 0) + 1.5);
    }
  }
  const ranked = [...counts.entries()]
    .filter(([word, count]) => count >= 2 && !terms.has(word))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  for (const [word] of ranked) {
    if (terms.size >= 8) break;
    if ([...terms.keys()].some((t) => t.includes(word) || word.includes(t))) continue;
    const pattern = new RegExp(`\\b${escapeRegExp(word)}\\b`, 'i');
    for (let index = 0; index < sections.length; index++) {
      const sentence = sections[index]!.paragraphs.flatMap(sentences).find(
        (s) => pattern.test(s) && wordCount(s) >= 6 && wordCount(s) <= 50,
      );
      if (sentence) {
        terms.set(word, { term: word, definition: sentence, section: index, defined: false });
        break;
      }
    }
  }
  return [...terms.values()];
}

// ----- Objectives ---------------------------------------------------------------------------

const VERB_RULES: Array<{ verb: string; test: RegExp; phrase: (topic: string) => string }> = [
  {
    verb: 'calculate',
    test: /\b(?:calculate|formula|equation)\b|\d\s*[×*/=]\s*\d|=\s*\d/i,
    phrase: (topic) => `Calculate the quantities involved in ${topic}.`,
  },
  {
    verb: 'compare',
    test: /\b(?:whereas|unlike|in contrast|compared with|differs? from|difference between|similarly)\b/i,
    phrase: (topic) => `Compare the approaches described in ${topic}.`,
  },
  {
    verb: 'sequence',
    test: /\b(?:first|then|next|finally|step|stages?|phases?)\b[\s\S]*\b(?:then|next|finally|after)\b/i,
    phrase: (topic) => `Sequence the steps of ${topic}.`,
  },
  {
    verb: 'explain',
    test: /\b(?:because|therefore|causes?|leads? to|results? in|due to|so that)\b/i,
    phrase: (topic) => `Explain the causes and effects described in ${topic}.`,
  },
];

function topicOf(heading: string): string {
  const lowered =
    /^[A-Z][a-z]/.test(heading) && !/^[A-Z][a-z]+[A-Z]/.test(heading)
      ? heading[0]!.toLowerCase() + heading.slice(1)
      : heading;
  return /^(the|a|an)\s/i.test(lowered) ? lowered : `"${heading}"`;
}

function objectivesFor(sections: LessonSection[], terms: Term[]): LearningObjective[] {
  const objectives: LearningObjective[] = [];
  const defined = terms.filter((t) => t.defined).slice(0, 3);
  if (defined.length > 0) {
    const list = defined.map((t) => t.term);
    const joined =
      list.length === 1 ? list[0] : `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`;
    objectives.push({ verb: 'define', text: `Define ${joined} in your own words.` });
  }
  for (const section of sections) {
    if (objectives.length >= 6) break;
    const rule = VERB_RULES.find((r) => r.test.test(section.body));
    const topic = topicOf(section.heading);
    const objective = rule
      ? { verb: rule.verb, text: rule.phrase(topic) }
      : { verb: 'describe', text: `Describe the main points of ${topic}.` };
    if (!objectives.some((o) => o.text === objective.text)) objectives.push(objective);
  }
  if (objectives.length < 3 && terms.length > 0) {
    objectives.push({
      verb: 'identify',
      text: `Identify ${terms[0]!.term} in an example from the lesson.`,
    });
  }
  if (objectives.length < 3 && sections.length > 0) {
    objectives.push({
      verb: 'summarise',
      text: `Summarise ${topicOf(sections[0]!.heading)} in three sentences.`,
    });
  }
  return objectives;
}

// ----- Quiz ---------------------------------------------------------------------------------

/** A section body's sentences, paragraph by paragraph, its subheadings left out. */
function bodySentences(body: string): string[] {
  return body
    .split(/\n\s*\n/)
    .filter((p) => !/^#{1,6}\s/.test(p))
    .flatMap((p) => sentences(p.replace(/^- /, '')));
}

function masked(sentence: string, term: string): string | null {
  const pattern = new RegExp(`\\b${escapeRegExp(term)}\\b`, 'gi');
  if (!pattern.test(sentence)) return null;
  return sentence.replace(pattern, CLOZE_GAP);
}

/** Distractors of a similar kind: terms of a similar length first. */
function distractors(answer: string, pool: string[], count: number): string[] {
  const words = wordCount(answer);
  return pool
    .filter((t) => t.toLowerCase() !== answer.toLowerCase())
    .filter((t) => !t.toLowerCase().includes(answer.toLowerCase()))
    .sort(
      (a, b) =>
        Math.abs(wordCount(a) - words) - Math.abs(wordCount(b) - words) ||
        Math.abs(a.length - answer.length) - Math.abs(b.length - answer.length),
    )
    .slice(0, count);
}

/** Puts the correct choice at a position that depends on the question, not always first. */
function placeChoices(
  correct: string,
  wrong: string[],
  seed: number,
): { choices: string[]; index: number } {
  const index = seed % (wrong.length + 1);
  const choices = [...wrong];
  choices.splice(index, 0, correct);
  return { choices, index };
}

const CHOICE_IDS = ['a', 'b', 'c', 'd', 'e'];

function numberQuestions(sections: LessonSection[], seedStart: number): QuizQuestion[] {
  const numberPattern = /\b\d{1,3}(?:,\d{3})*(?:\.\d+)?\b/g;
  const allNumbers = [...new Set(sections.flatMap((s) => s.body.match(numberPattern) ?? []))];
  const questions: QuizQuestion[] = [];
  for (const section of sections) {
    for (const sentence of bodySentences(section.body)) {
      if (questions.length >= 2) return questions;
      const found = sentence.match(numberPattern);
      if (!found || wordCount(sentence) < 6 || wordCount(sentence) > 40) continue;
      const answer = found[0]!;
      const wrong = allNumbers.filter((n) => n !== answer).slice(0, 3);
      if (wrong.length < 2) continue;
      const { choices, index } = placeChoices(answer, wrong, seedStart + questions.length);
      questions.push({
        kind: 'multiple_choice',
        id: `figure-${questions.length + 1}`,
        sectionId: section.id,
        prompt: `Which figure completes this statement from the lesson? "${sentence.replace(answer, CLOZE_GAP)}"`,
        choices: choices.map((text, i) => ({ id: CHOICE_IDS[i]!, text })),
        answer: CHOICE_IDS[index]!,
        keyPoints: [answer],
        difficulty: 1,
      });
    }
  }
  return questions;
}

/** The section's sentences that carry most of its content words: its central statements. */
function centralSentences(body: string, count: number): string[] {
  const all = bodySentences(body).filter((s) => wordCount(s) >= 6 && wordCount(s) <= 45);
  const frequency = new Map<string, number>();
  for (const w of contentWords(body)) frequency.set(w, (frequency.get(w) ?? 0) + 1);
  const scored = all.map((s, i) => {
    const words = contentWords(s);
    const score =
      words.reduce((sum, w) => sum + (frequency.get(w) ?? 0), 0) / Math.sqrt(words.length + 1);
    return { s, i, score };
  });
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, count)
    .sort((a, b) => a.i - b.i)
    .map((x) => x.s);
}

function quizFor(sections: LessonSection[], terms: Term[]): QuizQuestion[] {
  const quiz: QuizQuestion[] = [];
  const taken = new Set<string>();
  const pool = terms.map((t) => t.term);
  const usedSentences = new Set<string>();

  // Multiple choice: which term a definition describes.
  for (const term of terms.filter((t) => t.defined)) {
    if (quiz.filter((q) => q.kind === 'multiple_choice').length >= 4) break;
    const wrong = distractors(term.term, pool, 3);
    const stem = masked(term.definition, term.term);
    if (wrong.length < 2 || !stem) continue;
    const { choices, index } = placeChoices(term.term, wrong, quiz.length + term.term.length);
    usedSentences.add(term.definition);
    quiz.push({
      kind: 'multiple_choice',
      id: slugify(`term ${term.term}`, taken),
      sectionId: sections[term.section]?.id ?? null,
      prompt: `Which term completes the definition? "${stem}"`,
      choices: choices.map((text, i) => ({ id: CHOICE_IDS[i]!, text })),
      answer: CHOICE_IDS[index]!,
      keyPoints: [term.term],
      difficulty: 1,
    });
  }
  if (quiz.length < 2) quiz.push(...numberQuestions(sections, quiz.length));

  // Cloze: a sentence that uses a key term, other than the one that defines it.
  for (const term of terms) {
    if (quiz.filter((q) => q.kind === 'cloze').length >= 4) break;
    for (const section of sections) {
      const sentence = bodySentences(section.body).find(
        (s) =>
          !usedSentences.has(s) &&
          /[.!?]$/.test(s) &&
          !/\d\.$/.test(s) &&
          wordCount(s) >= 8 &&
          wordCount(s) <= 40 &&
          new RegExp(`\\b${escapeRegExp(term.term)}\\b`, 'i').test(s),
      );
      const text = sentence ? masked(sentence, term.term) : null;
      if (!sentence || !text || text.split(CLOZE_GAP).length !== 2) continue;
      usedSentences.add(sentence);
      quiz.push({
        kind: 'cloze',
        id: slugify(`gap ${term.term}`, taken),
        sectionId: section.id,
        text,
        answer: term.term,
        keyPoints: [term.term],
        difficulty: 2,
      });
      break;
    }
  }

  // Short answer: the longest sections, graded on their central sentences.
  const bySize = [...sections]
    .filter((s) => wordCount(s.body) >= 40)
    .sort((a, b) => wordCount(b.body) - wordCount(a.body))
    .slice(0, 3);
  for (const section of sections.filter((s) => bySize.includes(s))) {
    const central = centralSentences(section.body, 3);
    if (central.length < 2) continue;
    quiz.push({
      kind: 'short_answer',
      id: slugify(`explain ${section.heading}`, taken),
      sectionId: section.id,
      prompt: `In your own words, explain the main points of ${topicOf(section.heading)}.`,
      referenceAnswer: central.join(' '),
      keyPoints: central.map((s) => s.replace(/\s+/g, ' ').slice(0, 300)),
      difficulty: 3,
    });
  }
  return quiz;
}

// ----- The lesson -----------------------------------------------------------------------------

function headingFor(draft: DraftSection, index: number, terms: Term[]): string {
  if (draft.heading) return draft.heading.slice(0, 120);
  const body = draft.paragraphs.join(' ');
  const term = terms.find((t) => new RegExp(`\\b${escapeRegExp(t.term)}\\b`, 'i').test(body));
  if (term) return `About ${term.term}`;
  const words = contentWords(body).slice(0, 4);
  return words.length > 0 ? `Part ${index + 1}: ${words.join(', ')}` : `Part ${index + 1}`;
}

function bodyOf(paragraphs: string[]): string {
  return paragraphs
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .join('\n\n');
}

export function buildOfflineLesson(
  extracted: ExtractedText,
  options: { title: string; language: string },
): StructuredLesson {
  const drafts = draftSections(extracted);
  const terms = findTerms(drafts);
  const taken = new Set<string>();
  const sections: LessonSection[] = drafts.map((draft, index) => {
    const heading = headingFor(draft, index, terms);
    return {
      id: slugify(heading, taken),
      heading,
      body: bodyOf(draft.paragraphs),
      sources: draft.sources,
    };
  });
  const glossary: GlossaryEntry[] = terms
    .map((t) => ({ term: t.term, definition: t.definition }))
    .sort((a, b) => a.term.localeCompare(b.term));
  return {
    title: extracted.title?.trim() || options.title,
    language: options.language,
    objectives: objectivesFor(sections, terms),
    sections,
    glossary,
    quiz: quizFor(sections, terms),
  };
}
