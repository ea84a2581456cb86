/**
 * The answer evaluator: judges a learner's free-text answer against a question's reference
 * answer and key points. The offline engine needs no network; it compares the answer with each
 * key point word by word after normalisation and says which points are missing.
 */
import type { Evaluation, Verdict } from '../../common/coach';
import { NEGATIONS, STOPWORDS, stem, words } from './text';

export type { Evaluation, Verdict };

export interface EvaluationInput {
  question: string;
  referenceAnswer: string;
  /** The points a full answer makes; without them, the reference answer's sentences. */
  keyPoints?: readonly string[];
  answer: string;
}

/** A key point counts as made when this share of its content words is in the answer. */
const POINT_COVERAGE = 0.5;

interface Token {
  stem: string;
  negated: boolean;
}

/** A negation reaches to the end of its clause: punctuation or a joining word ends it. */
const CLAUSE_BREAK =
  /[,;:.!?()]+\s|[;:!?()]|\s(?:but|so|because|while|whereas|although|and then)\s/i;

/**
 * Content tokens; a token is negated when a negation word stands in the three words before it
 * within its clause.
 */
function contentTokens(text: string): Token[] {
  return text.split(CLAUSE_BREAK).flatMap(clauseTokens);
}

function clauseTokens(clause: string): Token[] {
  const tokens: Token[] = [];
  let negationWindow = 0;
  for (const word of words(clause)) {
    if (NEGATIONS.has(word) || word.endsWith("n't")) {
      negationWindow = 3;
      continue;
    }
    if (STOPWORDS.has(word)) {
      if (negationWindow > 0) negationWindow -= 1;
      continue;
    }
    tokens.push({ stem: stem(word), negated: negationWindow > 0 });
    if (negationWindow > 0) negationWindow -= 1;
  }
  return tokens;
}

function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.;!?])\s+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => contentTokens(sentence).length > 0);
}

interface PointResult {
  point: string;
  made: boolean;
  contradicted: boolean;
}

/** For each stem of the answer, the polarities it appears with (true: negated). */
type AnswerIndex = Map<string, Set<boolean>>;

function judgePoint(point: string, answer: AnswerIndex): PointResult {
  const unique = new Map(
    contentTokens(point).map((token) => [`${token.stem}|${token.negated}`, token]),
  );
  if (unique.size === 0) return { point, made: true, contradicted: false };
  let present = 0;
  let opposed = 0;
  let numberMissing = false;
  for (const token of unique.values()) {
    const polarities = answer.get(token.stem);
    if (!polarities) {
      // A figure is the point of a point that states one: "y = 3" is not made by "y = 7".
      if (/^\d/.test(token.stem)) numberMissing = true;
      continue;
    }
    if (polarities.has(token.negated)) present += 1;
    else opposed += 1;
  }
  const made = present / unique.size >= POINT_COVERAGE && opposed === 0 && !numberMissing;
  const contradicted = !made && (present + opposed) / unique.size >= POINT_COVERAGE && opposed > 0;
  return { point, made, contradicted };
}

function listPoints(points: readonly string[]): string {
  return points.map((point) => `- ${point}`).join('\n');
}

/** Judges an answer offline. Never throws for any string input. */
export function evaluateOffline(input: EvaluationInput): Evaluation {
  const points =
    input.keyPoints && input.keyPoints.length > 0
      ? [...input.keyPoints]
      : splitSentences(input.referenceAnswer);
  const answerTokens: AnswerIndex = new Map();
  for (const token of contentTokens(input.answer)) {
    const polarities = answerTokens.get(token.stem) ?? new Set<boolean>();
    polarities.add(token.negated);
    answerTokens.set(token.stem, polarities);
  }

  if (answerTokens.size === 0) {
    return {
      verdict: 'incorrect',
      missing: points,
      feedback:
        'Your answer does not say anything about the question yet. Try to answer it in a sentence or two.',
    };
  }

  const results = points.map((point) => judgePoint(point, answerTokens));
  const made = results.filter((result) => result.made);
  const contradicted = results.filter((result) => result.contradicted);
  const missing = results.filter((result) => !result.made).map((result) => result.point);

  let verdict: Verdict;
  if (contradicted.length > 0 && made.length === 0) verdict = 'incorrect';
  else if (missing.length === 0) verdict = 'correct';
  else if (made.length > 0) verdict = 'partially_correct';
  else verdict = 'incorrect';

  return {
    verdict,
    missing,
    feedback: feedbackFor(verdict, made.length, points.length, missing, contradicted),
  };
}

function feedbackFor(
  verdict: Verdict,
  madeCount: number,
  total: number,
  missing: readonly string[],
  contradicted: readonly PointResult[],
): string {
  if (verdict === 'correct') {
    return `Correct: your answer makes ${total === 1 ? 'the key point' : `all ${total} key points`}.`;
  }
  const parts: string[] = [];
  if (contradicted.length > 0) {
    parts.push(
      `Your answer seems to say the opposite of: ${contradicted.map((result) => `"${result.point}"`).join('; ')}.`,
    );
  }
  if (verdict === 'partially_correct') {
    parts.unshift(`Partly right: your answer makes ${madeCount} of ${total} key points.`);
    parts.push(`Still missing:\n${listPoints(missing)}`);
  } else {
    parts.unshift('Not yet: your answer does not make the key points of this question.');
    parts.push(`A full answer would cover:\n${listPoints(missing)}`);
  }
  return parts.join(' ');
}

/** Judges an answer. The signature is shared by the coach, quizzes and LE Adapt. */
export async function evaluateAnswer(input: EvaluationInput): Promise<Evaluation> {
  return evaluateOffline(input);
}
