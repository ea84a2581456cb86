// One-off: the learned verdict of decision 0233/0235 (λ 0.0001, no vectors, fixed before), trained
// on all 701 tuning answers, measured once on the fifth held-out set beside the rules.
import { loadLabelledAnswers } from './bench/coach-evaluator-set';
import { evaluateOffline, evaluationFeatures } from './src/server/coach/evaluate';
const V = ['correct', 'partially_correct', 'incorrect'] as const;
const L2 = 0.0001, STEPS = 3000, RATE = 0.5;
const prob = (w: number[][], x: number[]) => { const s = w.map((r) => r.reduce((a, v, j) => a + v * x[j]!, 0)); const t = Math.max(...s); const e = s.map((v) => Math.exp(v - t)); const z = e.reduce((a, b) => a + b, 0); return e.map((v) => v / z); };
const all = loadLabelledAnswers(process.cwd(), { withHeldOut4: true, withHeldOut5: true });
const train = all.filter((r) => r.part !== 'held-out-5');
const test = all.filter((r) => r.part === 'held-out-5');
const xs = train.map((r) => evaluationFeatures(r.input)); const ys = train.map((r) => V.indexOf(r.label));
const d = xs[0]!.length; const w = V.map(() => new Array<number>(d).fill(0));
for (let s = 0; s < STEPS; s++) { const g = V.map(() => new Array<number>(d).fill(0)); xs.forEach((x, i) => prob(w, x).forEach((p, k) => { const e = p - (ys[i] === k ? 1 : 0); for (let j = 0; j < d; j++) g[k]![j]! += (e * x[j]!) / xs.length; })); w.forEach((r, k) => { for (let j = 0; j < d; j++) r[j]! -= RATE * (g[k]![j]! + (j === 0 ? 0 : L2 * r[j]!)); }); }
let learned = 0, rules = 0; const conf = V.map(() => [0, 0, 0]);
for (const r of test) { const p = prob(w, evaluationFeatures(r.input)); const k = p.indexOf(Math.max(...p)); conf[V.indexOf(r.label)]![k]! += 1; if (V[k] === r.label) learned++; if (evaluateOffline(r.input).verdict === r.label) rules++; }
console.log(`trained on ${train.length}, fifth set ${test.length}: learned ${(100 * learned / test.length).toFixed(1)}% (${learned}), rules ${(100 * rules / test.length).toFixed(1)}% (${rules})`);
console.log('confusion learned (label → correct/partial/incorrect):', JSON.stringify(conf));
