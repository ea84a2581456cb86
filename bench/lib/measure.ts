/**
 * Load generators for the benchmarks: autocannon for HTTP, and an equivalent closed loop for
 * work that has no HTTP in front of it (the database adapter baseline), so both report the same
 * figures: throughput and latency percentiles at a fixed number of concurrent clients.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadJob, LoadResult } from './load-generator';

export interface Measurement {
  requestsPerSecond: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  /** Requests that failed or answered outside 2xx: any makes the figure suspect. */
  errors: number;
  total: number;
}

export interface HttpCase {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

type LoadAnswer = { ok: true; result: LoadResult } | { ok: false; message: string };

let generator: ChildProcess | undefined;

function loadGenerator(): ChildProcess {
  if (!generator || generator.exitCode !== null) {
    generator = fork(fileURLToPath(new URL('./load-generator.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
    });
  }
  return generator;
}

/**
 * Measures `target` from the load-generator process. The servers under test run in this
 * process, and autocannon does part of its work (setup, histograms, the summary) on the thread
 * that calls it even with worker threads: in one-second rounds that took a fifth of the server
 * thread, and penalised most the server doing the most work on it.
 */
export function measureHttp(
  target: HttpCase,
  options: { connections: number; seconds: number },
): Promise<Measurement> {
  const child = loadGenerator();
  const job: LoadJob = {
    url: target.url,
    method: target.method ?? 'GET',
    headers: target.headers ?? {},
    body: target.body,
    connections: options.connections,
    seconds: options.seconds,
  };
  child.ref();
  child.channel?.ref();
  return new Promise<Measurement>((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`load generator exited (code ${code}) during a measurement`));
    child.once('exit', onExit);
    child.once('message', (answer: LoadAnswer) => {
      child.off('exit', onExit);
      // Idle between measurements: it must not keep a finished benchmark alive.
      child.unref();
      child.channel?.unref();
      if (!answer.ok) return reject(new Error(answer.message));
      const { result } = answer;
      resolve({
        requestsPerSecond: result.total / result.duration,
        seconds: result.duration,
        p50Ms: result.p50,
        p99Ms: result.p99,
        errors: result.errors,
        total: result.total,
      });
    });
    child.send(job);
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? 0;
}

/** measureLoop keeps every latency, so it also gives the 95th percentile. */
export interface LoopMeasurement extends Measurement {
  p95Ms: number;
}

/** Runs `task` from `concurrency` parallel loops for `seconds`. */
export async function measureLoop(
  task: () => Promise<unknown>,
  options: { connections: number; seconds: number },
): Promise<LoopMeasurement> {
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        try {
          await task();
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: latencies.length / elapsed,
    seconds: elapsed,
    p50Ms: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
    p99Ms: percentile(latencies, 99),
    errors,
    total: latencies.length,
  };
}

/**
 * Joins short rounds of one case into one figure: throughput over the total time, and
 * latency percentiles as the request-weighted mean of each round's (an approximation that
 * keeps rounds cheap). Interleaving rounds of the cases being compared spreads the noise of
 * a shared machine evenly over them.
 */
export function combine(rounds: Measurement[]): Measurement {
  const total = rounds.reduce((sum, r) => sum + r.total, 0);
  const seconds = rounds.reduce((sum, r) => sum + r.seconds, 0);
  const weighted = (pick: (r: Measurement) => number) =>
    total === 0 ? 0 : rounds.reduce((sum, r) => sum + pick(r) * r.total, 0) / total;
  return {
    requestsPerSecond: seconds === 0 ? 0 : total / seconds,
    seconds,
    p50Ms: weighted((r) => r.p50Ms),
    p99Ms: weighted((r) => r.p99Ms),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    total,
  };
}
