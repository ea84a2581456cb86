/**
 * A verdict learned from the offline evaluator's own measurements (decision 0233): multinomial
 * logistic regression (L2, full-batch gradient descent, no dependency) on `evaluationFeatures`
 * of the 701 labelled answers. Prints grouped cross-validation by question (an answer's
 * question is never in both the train and the test folds) next to the rule verdict on the same
 * folds, then the fourth set alone (trained without its questions), and with `--write <file>`
 * writes the weights trained on every answer.
 *
 * `--embeddings <table>` adds the word-similarity features of decision 0235 (the table written by
 * scripts/build-evaluator-embeddings.ts; a point word counts as said in a similar word at
 * cosine `--similar`, 0.75 by default, chosen on the other sets' cross-validation).
 * `--other-sets` cross-validates the answers of every set but the fourth and prints nothing of
 * the fourth: the run that chooses λ and thresholds before the fourth set is looked at.
 * `--write-only` skips the cross-validation and only writes the weights (decisions 0236, 0238: the
 * evaluator's verdict is `--l2 0.0001 --write-only --write src/server/coach/verdict-weights.json`,
 * written at full precision so the shipped verdict is exactly the one measured).
 *
 * The answers are the five tuning sets' 881 (decision 0238); the sixth held-out set (decision
 * 0237) is never loaded. `--by-set` runs decision 0238's leave-one-set-out cross-validation:
 * each set scored by weights trained on the other four, through the evaluator's hard rules
 * (`offlineVerdict`), each fold and their mean; `--list` adds its mistakes, `--details` its
 * precision and recall per set.
 *
 *   node --import tsx scripts/train-evaluator-verdict.ts [--l2 <penalty>] [--by-set [--list]
 *     [--details]] [--embeddings <table> [--similar <cosine>]] [--other-sets] [--write <file>]
 *     [--write-only]
 */
import fs from 'node:fs';
import { loadLabelledAnswers, type LabelledAnswer } from '../bench/coach-evaluator-set';
import {
  EMBEDDING_FEATURE_NAMES,
  WordVectors,
  embeddingFeatures,
} from './lib/evaluator-word-vectors';
import {
  FEATURE_NAMES,
  featuresOf,
  judgeOffline,
  offlineVerdict,
  type OfflineJudgement,
  type Verdict,
} from '../src/server/coach/evaluate';

const VERDICTS: readonly Verdict[] = ['correct', 'partially_correct', 'incorrect'];
const FOLDS = 10;
const l2At = process.argv.indexOf('--l2');
const L2 = l2At === -1 ? 0.01 : Number(process.argv[l2At + 1]);
const STEPS = 3000;
const embeddingsAt = process.argv.indexOf('--embeddings');
const vectors =
  embeddingsAt === -1 ? undefined : new WordVectors(process.argv[embeddingsAt + 1] ?? '');
const WITH_EMBEDDINGS = vectors !== undefined;
const similarAt = process.argv.indexOf('--similar');
const SIMILAR_WORD = similarAt === -1 ? 0.75 : Number(process.argv[similarAt + 1]);
const OTHER_SETS = process.argv.includes('--other-sets');
const WRITE_ONLY = process.argv.includes('--write-only');
const RATE = 0.5;

type Weights = number[][]; // one row per verdict, one column per feature

function probabilities(weights: Weights, x: readonly number[]): number[] {
  const scores = weights.map((row) => row.reduce((sum, w, j) => sum + w * x[j]!, 0));
  const top = Math.max(...scores);
  const exps = scores.map((score) => Math.exp(score - top));
  const total = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / total);
}

function train(xs: readonly number[][], ys: readonly number[]): Weights {
  const d = xs[0]!.length;
  const weights: Weights = VERDICTS.map(() => new Array<number>(d).fill(0));
  for (let step = 0; step < STEPS; step += 1) {
    const gradient = VERDICTS.map(() => new Array<number>(d).fill(0));
    xs.forEach((x, i) => {
      const p = probabilities(weights, x);
      p.forEach((pk, k) => {
        const error = pk - (ys[i] === k ? 1 : 0);
        for (let j = 0; j < d; j += 1) gradient[k]![j]! += (error * x[j]!) / xs.length;
      });
    });
    weights.forEach((row, k) => {
      for (let j = 0; j < d; j += 1) {
        // The bias is not shrunk.
        const shrink = j === 0 ? 0 : L2 * row[j]!;
        row[j]! -= RATE * (gradient[k]![j]! + shrink);
      }
    });
  }
  return weights;
}

function predict(weights: Weights, x: readonly number[]): number {
  const p = probabilities(weights, x);
  return p.indexOf(Math.max(...p));
}

/** FNV-1a, so a question's fold depends on its name only. */
function fold(where: string): number {
  let hash = 0x811c9dc5;
  for (const char of where) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return hash % FOLDS;
}

// Never the sixth held-out set (decision 0237): it is measured once by the lead, never trained
// or tuned on.
const set = loadLabelledAnswers(process.cwd(), {
  withHeldOut4: true,
  withHeldOut5: true,
  withHeldOut6: false,
}).filter((row) => !OTHER_SETS || row.part !== 'held-out-4');
const rows = set.map((row) => {
  const judged = judgeOffline(row.input);
  return {
    row,
    judged,
    x: [
      ...featuresOf(judged, row.input),
      ...(vectors ? embeddingFeatures(row.input, vectors, SIMILAR_WORD) : []),
    ],
    y: VERDICTS.indexOf(row.label),
    rule: VERDICTS.indexOf(judged.evaluation.verdict),
  };
});
type Row = (typeof rows)[number];

/** The verdict `evaluateOffline` gives with `weights`: the model, then the hard rules. */
function shipped(weights: Weights, r: { judged: OfflineJudgement; x: readonly number[] }): number {
  return VERDICTS.indexOf(offlineVerdict(r.judged, () => VERDICTS[predict(weights, r.x)]!));
}

/**
 * The five tuning sets, each written in one session (decision 0238): the first set (both its
 * parts), the second tuning and held-out sets (decision 0225), the third, fourth and fifth.
 */
const TUNING_SETS: readonly { name: string; parts: readonly LabelledAnswer['part'][] }[] = [
  { name: 'S1 first set', parts: ['tuning', 'held-out'] },
  { name: 'S2 second sets', parts: ['tuning-2', 'held-out-2'] },
  { name: 'S3 third set', parts: ['held-out-3'] },
  { name: 'S4 fourth set', parts: ['held-out-4'] },
  { name: 'S5 fifth set', parts: ['held-out-5'] },
];

function bySet(): void {
  // Leave-one-set-out: each set scored by weights trained on the other four (decision 0238).
  const predicted = new Map<Row, number>();
  const lines: string[] = [];
  const accuracies: number[] = [];
  for (const { name, parts } of TUNING_SETS) {
    const test = rows.filter((r) => parts.includes(r.row.part));
    const trainRows = rows.filter((r) => !parts.includes(r.row.part));
    const weights = train(
      trainRows.map((r) => r.x),
      trainRows.map((r) => r.y),
    );
    for (const r of test) predicted.set(r, shipped(weights, r));
    const right = test.filter((r) => predicted.get(r) === r.y).length;
    accuracies.push((100 * right) / test.length);
    lines.push(`${name}: ${percent(right, test.length)} (${right}/${test.length})`);
  }
  const right = rows.filter((r) => predicted.get(r) === r.y).length;
  const mean = accuracies.reduce((a, b) => a + b, 0) / accuracies.length;
  console.log(
    `leave-one-set-out, L2 ${L2}, ${STEPS} steps, ${rows[0]!.x.length} features: mean ${mean.toFixed(2)}%, pooled ${percent(right, rows.length)} (${right}/${rows.length})`,
  );
  console.log(lines.join('; '));
  if (process.argv.includes('--list')) {
    for (const r of rows.filter((x) => predicted.get(x) !== x.y)) {
      console.log(
        `\n[${r.row.part} ${r.row.kind}] ${r.row.where}: label ${VERDICTS[r.y]}, got ${VERDICTS[predicted.get(r)!]}, rules ${VERDICTS[r.rule]} (made ${r.judged.made}, contradicted ${r.judged.contradicted} of ${r.judged.points})`,
      );
      console.log(`  answer: ${r.row.input.answer}`);
      r.judged.results.forEach((p) =>
        console.log(`  ${p.made ? '+' : p.contradicted ? 'x' : '-'} ${p.point}`),
      );
    }
  }
  if (process.argv.includes('--details')) {
    report('all answers, leave-one-set-out', rows, predicted);
    for (const { name, parts } of TUNING_SETS) {
      report(
        name,
        rows.filter((r) => parts.includes(r.row.part)),
        predicted,
      );
    }
  }
}

const percent = (n: number, of: number) => (of === 0 ? '—' : `${((100 * n) / of).toFixed(1)}%`);

function report(title: string, part: readonly Row[], learned: ReadonlyMap<Row, number>): void {
  const right = (pick: (r: Row) => number) => part.filter((r) => pick(r) === r.y).length;
  const ruleRight = right((r) => r.rule);
  const learnedRight = right((r) => learned.get(r)!);
  console.log(
    `\n== ${title}: ${part.length} answers to ${new Set(part.map((r) => r.row.where)).size} questions`,
  );
  console.log(
    `accuracy: learned ${percent(learnedRight, part.length)} (${learnedRight}), rules ${percent(ruleRight, part.length)} (${ruleRight})`,
  );
  console.log('verdict             learned P/R        rules P/R');
  VERDICTS.forEach((verdict, k) => {
    const pr = (pick: (r: Row) => number) => {
      const predicted = part.filter((r) => pick(r) === k);
      const actual = part.filter((r) => r.y === k);
      const hits = predicted.filter((r) => r.y === k).length;
      return `${percent(hits, predicted.length).padStart(6)} ${percent(hits, actual.length).padStart(6)}`;
    };
    console.log(`${verdict.padEnd(18)} ${pr((r) => learned.get(r)!)}    ${pr((r) => r.rule)}`);
  });
  const kinds = [...new Set(part.map((r) => r.row.kind))];
  const byKind = kinds.map((kind) => {
    const ofKind = part.filter((r) => r.row.kind === kind);
    const learnedOfKind = ofKind.filter((r) => learned.get(r) === r.y).length;
    const rulesOfKind = ofKind.filter((r) => r.rule === r.y).length;
    return `${kind} ${learnedOfKind}/${rulesOfKind} of ${ofKind.length}`;
  });
  console.log(`by kind (learned/rules right): ${byKind.join(', ')}`);
}

function crossValidate(): void {
  // Grouped cross-validation: every answer predicted by weights trained without its question.
  const crossValidated = new Map<Row, number>();
  for (let k = 0; k < FOLDS; k += 1) {
    const test = rows.filter((r) => fold(r.row.where) === k);
    const trainRows = rows.filter((r) => fold(r.row.where) !== k);
    const weights = train(
      trainRows.map((r) => r.x),
      trainRows.map((r) => r.y),
    );
    for (const r of test) crossValidated.set(r, predict(weights, r.x));
  }
  console.log(
    `grouped ${FOLDS}-fold cross-validation by question, L2 ${L2}, ${STEPS} steps, ${WITH_EMBEDDINGS ? `with word-similarity features (similar at ${SIMILAR_WORD})` : 'without word-similarity features'}${OTHER_SETS ? ', every set but the fourth' : ''}`,
  );
  report('all answers', rows, crossValidated);
  const parts = [...new Set(set.map((row) => row.part))] as LabelledAnswer['part'][];
  for (const part of parts) {
    report(
      `part ${part} (cross-validated)`,
      rows.filter((r) => r.row.part === part),
      crossValidated,
    );
  }
  const foldLine = Array.from({ length: FOLDS }, (_, k) => {
    const test = rows.filter((r) => fold(r.row.where) === k);
    const learned = test.filter((r) => crossValidated.get(r) === r.y).length;
    const rule = test.filter((r) => r.rule === r.y).length;
    return `${k}: ${learned}/${rule} of ${test.length}`;
  });
  console.log(`\nper fold (learned/rules right): ${foldLine.join(', ')}`);
}

function fourthSet(): void {
  // The fourth set as a set: trained on the other sets' answers to other questions only.
  const fourth = rows.filter((r) => r.row.part === 'held-out-4');
  const fourthQuestions = new Set(fourth.map((r) => r.row.where));
  const others = rows.filter(
    (r) => r.row.part !== 'held-out-4' && !fourthQuestions.has(r.row.where),
  );
  const withoutFourth = train(
    others.map((r) => r.x),
    others.map((r) => r.y),
  );
  report(
    `fourth set, trained on ${others.length} other answers to other questions`,
    fourth,
    new Map(fourth.map((r) => [r, predict(withoutFourth, r.x)])),
  );
}

if (process.argv.includes('--by-set')) {
  bySet();
} else if (!WRITE_ONLY) {
  crossValidate();
  if (OTHER_SETS) process.exit(0);
  fourthSet();
}

const out = process.argv.indexOf('--write');
if (out !== -1) {
  const file = process.argv[out + 1];
  if (!file) throw new Error('--write needs a file name');
  const weights = train(
    rows.map((r) => r.x),
    rows.map((r) => r.y),
  );
  fs.writeFileSync(
    file,
    `${JSON.stringify({ features: [...FEATURE_NAMES, ...(WITH_EMBEDDINGS ? EMBEDDING_FEATURE_NAMES : [])], verdicts: VERDICTS, l2: L2, steps: STEPS, weights }, null, 2)}\n`,
  );
  console.log(`\nweights trained on all ${rows.length} answers written to ${file}`);
}
