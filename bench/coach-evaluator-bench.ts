/**
 * The offline answer evaluator against the labelled learner answers: accuracy, precision and
 * recall per verdict, mistakes by kind of answer, and the latency of one evaluation (p50/p99,
 * after one warm-up pass that loads the language model).
 *
 *   node --import tsx bench/coach-evaluator-bench.ts [--mistakes]
 */
import { performance } from 'node:perf_hooks';
import { evaluateOffline, type Verdict } from '../src/server/coach/evaluate';
import { loadLabelledAnswers } from './coach-evaluator-set';

const verdicts: Verdict[] = ['correct', 'partially_correct', 'incorrect'];
const set = loadLabelledAnswers();
const showMistakes = process.argv.includes('--mistakes');

for (const row of set) evaluateOffline(row.input);

const timings: number[] = [];
const results = set.map((row) => {
  const started = performance.now();
  const evaluation = evaluateOffline(row.input);
  timings.push(performance.now() - started);
  return { row, predicted: evaluation.verdict, evaluation };
});

const right = results.filter((r) => r.predicted === r.row.label).length;
console.log(`labelled answers: ${set.length}`);
console.log(`accuracy: ${((100 * right) / set.length).toFixed(1)}% (${right}/${set.length})`);
console.log('\nverdict            precision  recall  support');
for (const verdict of verdicts) {
  const predicted = results.filter((r) => r.predicted === verdict);
  const actual = results.filter((r) => r.row.label === verdict);
  const hits = predicted.filter((r) => r.row.label === verdict).length;
  const precision = predicted.length ? hits / predicted.length : 0;
  const recall = actual.length ? hits / actual.length : 0;
  console.log(
    `${verdict.padEnd(18)} ${(100 * precision).toFixed(1).padStart(8)}% ${(100 * recall).toFixed(1).padStart(6)}% ${String(actual.length).padStart(8)}`,
  );
}

console.log('\nconfusion (rows: label, columns: predicted)');
console.log(`${''.padEnd(18)} ${verdicts.map((v) => v.padStart(18)).join('')}`);
for (const label of verdicts) {
  const row = verdicts.map((predicted) =>
    String(
      results.filter((r) => r.row.label === label && r.predicted === predicted).length,
    ).padStart(18),
  );
  console.log(`${label.padEnd(18)} ${row.join('')}`);
}

const kinds = [...new Set(set.map((row) => row.kind))];
console.log('\naccuracy by kind of answer');
for (const kind of kinds) {
  const ofKind = results.filter((r) => r.row.kind === kind);
  const ok = ofKind.filter((r) => r.predicted === r.row.label).length;
  console.log(`${kind.padEnd(14)} ${ok}/${ofKind.length}`);
}

timings.sort((a, b) => a - b);
const percentile = (p: number) =>
  timings[Math.min(timings.length - 1, Math.floor((p / 100) * timings.length))]!;
console.log(
  `\noffline evaluation latency: p50 ${percentile(50).toFixed(2)} ms, p99 ${percentile(99).toFixed(2)} ms, max ${timings.at(-1)!.toFixed(2)} ms`,
);

if (showMistakes) {
  for (const r of results.filter((x) => x.predicted !== x.row.label)) {
    console.log(`\n[${r.row.kind}] ${r.row.where}: label ${r.row.label}, got ${r.predicted}`);
    console.log(`  answer: ${r.row.input.answer}`);
    console.log(`  missing: ${r.evaluation.missing.join(' | ')}`);
  }
}
