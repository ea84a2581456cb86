/**
 * The fidelity gate: the key facts of the source (numbers, dates, names and the glossary's key
 * terms) must still be in the reviewed lesson, or the reviewer sees which were lost before
 * approving.
 */
import type { ExtractedText, FidelityReport, KeyFact, SourcePosition } from '../lesson';
import { splitSentences } from '../text';

const MONTHS =
  'January|February|March|April|May|June|July|August|September|October|November|December|' +
  'Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec';
const DATE = new RegExp(
  [
    `\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:${MONTHS})\\.?,?\\s+\\d{4}\\b`,
    `\\b(?:${MONTHS})\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4}\\b`,
    `\\b(?:${MONTHS})\\s+\\d{4}\\b`,
    `\\b\\d{4}-\\d{2}-\\d{2}\\b`,
  ].join('|'),
  'g',
);
const NUMBER = /(?<![\p{L}\d.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\p{L}\d.,])\d+(?:\.\d+)?/gu;
/** Capitalised words, joined by spaces or "of"/"de"/"van" (Jan Ingenhousz, University of Oslo). */
const NAME =
  /\b\p{Lu}[\p{Ll}'’-]+(?:\s+(?:(?:of|de|van|von|der|la|le|du)\s+)?\p{Lu}[\p{Ll}'’-]+)*/gu;

/** Words that are capitalised for reasons other than being names. */
const NOT_NAMES = new Set(
  `I The A An This That These Those It Its In On At For From With By To Of And Or But If When
  While Where What Which Who Why How Each Every Some Most Many Few All Both Not No Yes Step
  Figure Table Chapter Section Page Part Note Example Monday Tuesday Wednesday Thursday Friday
  Saturday Sunday January February March April June July August September October November
  December`.split(/\s+/),
);

function normalise(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

function numberValue(text: string): string {
  return text.replace(/,/g, '').replace(/\.0+$/, '');
}

interface Scan {
  numbers: Set<string>;
  text: string;
}

function scan(text: string): Scan {
  return {
    numbers: new Set([...text.matchAll(NUMBER)].map((m) => numberValue(m[0]))),
    text: normalise(text),
  };
}

/** Numbers that are a block on their own (page numbers, running footers) are not facts. */
function isPageFurniture(block: string, number: string): boolean {
  return new RegExp(`^\\s*(?:page\\s+)?${number}(?:\\s+of\\s+\\d+)?\\s*$`, 'i').test(block);
}

function namesIn(sentence: string): string[] {
  const names: string[] = [];
  for (const match of sentence.matchAll(NAME)) {
    const words = match[0].split(/\s+/);
    // A sentence's first word is capitalised anyway: drop it unless a name follows it.
    if (match.index === 0 && words.length === 1) continue;
    const kept = match.index === 0 && NOT_NAMES.has(words[0]!) ? words.slice(1) : words;
    if (kept.length === 0 || (kept.length === 1 && NOT_NAMES.has(kept[0]!))) continue;
    names.push(kept.join(' '));
  }
  return names;
}

function writtenInLowerCase(text: string, word: string): boolean {
  return new RegExp(`(?<!\\p{L})${word.toLowerCase()}(?!\\p{L})`, 'u').test(text);
}

/** The key facts of the extracted source, each with where it was found. */
export function keyFactsOf(source: ExtractedText, keyTerms: readonly string[]): KeyFact[] {
  const facts = new Map<string, KeyFact>();
  const add = (kind: KeyFact['kind'], text: string, where: SourcePosition | null) => {
    const key = `${kind}:${kind === 'number' ? numberValue(text) : normalise(text)}`;
    if (!facts.has(key)) facts.set(key, { kind, text, source: where });
  };
  const original = source.blocks.map((b) => b.text).join('\n');
  for (const block of source.blocks) {
    let rest = block.text;
    for (const match of block.text.matchAll(DATE)) {
      add('date', match[0], block.source);
      rest = rest.replace(match[0], ' ');
    }
    for (const match of rest.matchAll(NUMBER)) {
      if (!isPageFurniture(block.text, match[0])) add('number', match[0], block.source);
    }
    for (const sentence of splitSentences(rest)) {
      for (const name of namesIn(sentence)) {
        // A single word also written in lower case in the source is an ordinary word that
        // a heading or title capitalised.
        if (!name.includes(' ') && writtenInLowerCase(original, name)) continue;
        add('name', name, block.source);
      }
    }
  }
  for (const term of keyTerms) {
    if (term.trim()) add('term', term.trim(), null);
  }
  return [...facts.values()];
}

function present(fact: KeyFact, lesson: Scan): boolean {
  switch (fact.kind) {
    case 'number':
      return lesson.numbers.has(numberValue(fact.text));
    case 'date': {
      if (lesson.text.includes(normalise(fact.text))) return true;
      const parts = fact.text.match(/\d+|\p{L}+/gu) ?? [];
      return parts.every((p) =>
        /^\d+$/.test(p)
          ? lesson.numbers.has(String(Number(p))) || lesson.numbers.has(p)
          : lesson.text.includes(p.toLowerCase()),
      );
    }
    case 'name':
    case 'term':
      return lesson.text.includes(normalise(fact.text));
  }
}

/** Which of the source's facts the lesson text still holds. */
export function checkFidelity(facts: readonly KeyFact[], lessonText: string): FidelityReport {
  const lesson = scan(lessonText);
  const lost = facts.filter((fact) => !present(fact, lesson));
  return { passed: lost.length === 0, facts: [...facts], lost };
}
