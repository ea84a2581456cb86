/**
 * Word similarity for measuring the offline evaluator (decision 0235): the int8 table written by
 * scripts/build-evaluator-embeddings.ts from wink's 100-dimensional skip-gram embeddings, and
 * the word-similarity features a learned verdict was tried with. Not used by the server: the
 * experiment did not clear its margin, so neither the table nor this code ships.
 *
 * Such vectors put a word's opposite next to it ("hydrophobic"/"hydrophilic" 0.88,
 * "increase"/"decrease" 0.88): a similarity says two words are about the same thing, never
 * that they say the same of it, so a point word's opposites (the evaluator's table) never match.
 */
import fs from 'node:fs';
import {
  POINT_COVERAGE,
  QUESTION_WORD_WEIGHT,
  judgeOffline,
  type EvaluationInput,
  type OfflineJudgement,
} from '../../src/server/coach/evaluate';
import { analyse, type Term } from '../../src/server/coach/analyse';
import { OPPOSITE_OF, prefixOpposites } from '../../src/server/coach/synonyms';

export class WordVectors {
  private readonly dimensions: number;
  private readonly index: Map<string, number>;
  private readonly vectors: Int8Array;
  private readonly norms: Float64Array;

  constructor(file: string) {
    const table = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      dimensions: number;
      words: string;
      vectors: string;
    };
    const bytes = Buffer.from(table.vectors, 'base64');
    this.vectors = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
    this.dimensions = table.dimensions;
    const words = table.words.split(' ');
    this.index = new Map(words.map((word, i) => [word, i]));
    this.norms = new Float64Array(words.length);
    for (let i = 0; i < words.length; i += 1) {
      let sum = 0;
      for (let j = 0; j < this.dimensions; j += 1) {
        const value = this.vectors[i * this.dimensions + j]!;
        sum += value * value;
      }
      this.norms[i] = Math.sqrt(sum) || 1;
    }
  }

  /**
   * Cosine similarity of two words (each in several spellings: surface, lemma; the first with a
   * vector counts), 1 for the same word, undefined when either has no vector.
   */
  similarity(a: readonly string[], b: readonly string[]): number | undefined {
    if (a.some((word) => b.includes(word))) return 1;
    const i = a.map((word) => this.index.get(word)).find((at) => at !== undefined);
    const k = b.map((word) => this.index.get(word)).find((at) => at !== undefined);
    if (i === undefined || k === undefined) return undefined;
    let dot = 0;
    for (let j = 0; j < this.dimensions; j += 1) {
      dot += this.vectors[i * this.dimensions + j]! * this.vectors[k * this.dimensions + j]!;
    }
    return dot / (this.norms[i]! * this.norms[k]!);
  }
}

/** The names of `embeddingFeatures`' entries, in order. */
export const EMBEDDING_FEATURE_NAMES = [
  'mean soft coverage of points',
  'least soft coverage of a point',
  'share of points made in similar words',
  'every point made by rule or in similar words',
  'answer words near reference words',
  'answer and reference mean vectors cosine',
] as const;

const spellings = (term: Term) => [term.surface, term.word];

/**
 * What word similarity says of an answer (EMBEDDING_FEATURE_NAMES): how much of each point the
 * answer says in the same or similar words (at least `similarWord` cosine), with the same
 * polarity and never by the point word's opposite, and how near its words are to the
 * reference's.
 */
export function embeddingFeatures(
  input: EvaluationInput,
  vectors: WordVectors,
  similarWord: number,
  judged: OfflineJudgement = judgeOffline(input),
): number[] {
  const answerTerms = judged.answer.terms;
  if (answerTerms.length === 0 || judged.results.length === 0) return [0, 0, 0, 0, 0, 0];
  const questionWords = new Set(analyse(input.question).terms.map((term) => term.word));
  const similarity = (a: Term, b: Term) => vectors.similarity(spellings(a), spellings(b)) ?? 0;
  const coverages: number[] = [];
  let softlyMade = 0;
  let everyPoint = true;
  judged.pointTexts.forEach((point, index) => {
    const result = judged.results[index];
    const terms = analyse(point).terms;
    if (terms.length === 0) {
      coverages.push(result?.made ? 1 : 0);
      if (result?.made) softlyMade += 1;
      else everyPoint = false;
      return;
    }
    let total = 0;
    let sum = 0;
    let matched = 0;
    for (const term of terms) {
      const weight = questionWords.has(term.word) ? QUESTION_WORD_WEIGHT : 1;
      const opposites = new Set([
        ...(OPPOSITE_OF.get(term.word) ?? []),
        ...prefixOpposites(term.word),
      ]);
      let best = 0;
      for (const other of answerTerms) {
        if (other.negated !== term.negated || opposites.has(other.word)) continue;
        best = Math.max(best, similarity(term, other));
      }
      total += weight;
      sum += weight * best;
      if (best >= similarWord) matched += weight;
    }
    coverages.push(sum / total);
    const soft = matched / total >= POINT_COVERAGE && !result?.contradicted;
    if (soft) softlyMade += 1;
    if (!soft && !result?.made) everyPoint = false;
  });
  const referenceTerms = [input.referenceAnswer, ...judged.pointTexts].flatMap(
    (text) => analyse(text).terms,
  );
  const near =
    answerTerms.reduce(
      (sum, term) => sum + Math.max(0, ...referenceTerms.map((other) => similarity(term, other))),
      0,
    ) / answerTerms.length;
  // cos(mean a, mean b) = Σ sim(ai, bj) / sqrt(Σ sim(ai, ak) · Σ sim(bj, bl)) for unit vectors.
  const sumOf = (xs: readonly Term[], ys: readonly Term[]) =>
    xs.reduce((total, x) => total + ys.reduce((inner, y) => inner + similarity(x, y), 0), 0);
  const meanCosine =
    sumOf(answerTerms, referenceTerms) /
    Math.sqrt(
      Math.max(sumOf(answerTerms, answerTerms), 1e-9) *
        Math.max(sumOf(referenceTerms, referenceTerms), 1e-9),
    );
  return [
    coverages.reduce((a, b) => a + b, 0) / coverages.length,
    Math.min(...coverages),
    softlyMade / judged.pointTexts.length,
    everyPoint ? 1 : 0,
    near,
    meanCosine,
  ];
}
