/**
 * `npm run bench`: every benchmark, one after another (they share two CPU cores, so never in
 * parallel). Add a benchmark by adding its script to the list.
 */
import { spawnSync } from 'node:child_process';

const benches: string[][] = [
  ['bench/page-weight.ts'],
  ['bench/lighthouse.ts'],
  ['bench/rest-bench.ts'],
  ['bench/cluster-bench.ts'],
  ['bench/storage-bench.ts'],
  ['bench/metrics-bench.ts'],
  ['bench/learning-bench.ts'],
  ['bench/library-search-bench.ts'],
  ['bench/review-submit-bench.ts', 'pglite'],
  ['bench/review-submit-bench.ts', 'postgres'],
  ['bench/metrics-cache-bench.ts'],
  ['bench/embedded-fsync-bench.ts'],
  ['bench/auth-bench.ts'],
  ['bench/coupon-race-bench.ts'],
  ['bench/public-api-bench.ts'],
  ['bench/realtime-bench.ts'],
  ['bench/pdf-first-page-bench.ts'],
  ['bench/adapt-pipeline-bench.ts'],
  ['bench/adapt-audio-bench.ts'],
  ['bench/audit-write-bench.ts'],
  ['bench/compliance-console-bench.ts'],
  ['bench/privacy-export-bench.ts'],
];

let failures = 0;
for (const [script, ...args] of benches) {
  console.log(`\n=== ${script} ${args.join(' ')}`.trimEnd());
  const result = spawnSync(process.execPath, ['--import', 'tsx', script!, ...args], {
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    failures += 1;
    console.error(`${script} failed (${result.signal ?? `exit code ${result.status}`})`);
  }
}
if (failures > 0) {
  console.error(`\n${failures} benchmark(s) failed or missed their target.`);
  process.exitCode = 1;
}
