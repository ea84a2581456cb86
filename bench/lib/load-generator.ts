/**
 * A long-lived autocannon process for `measureHttp`: it runs one measurement per message and
 * answers with autocannon's result. One process for a whole benchmark, so its code is warm in
 * every round, and none of its work lands on the thread of the servers being measured.
 */
import autocannon from 'autocannon';

export interface LoadJob {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  seconds: number;
}

export interface LoadResult {
  total: number;
  duration: number;
  p50: number;
  p99: number;
  errors: number;
}

process.on('message', (job: LoadJob) => {
  void autocannon({
    url: job.url,
    method: job.method,
    headers: job.headers,
    body: job.body,
    connections: job.connections,
    duration: job.seconds,
  }).then(
    (result) => {
      const answer: LoadResult = {
        total: result.requests.total,
        duration: result.duration,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.timeouts + result.non2xx,
      };
      process.send?.({ ok: true, result: answer });
    },
    (error: unknown) => process.send?.({ ok: false, message: String(error) }),
  );
});
