/**
 * Coupon redemption under contention (decision 0601): 50 people sign up at once with one
 * coupon that allows 10 redemptions, through the real sign-up endpoint, on PGlite and
 * PostgreSQL. Exactly the allowed number must succeed (the rest answered `coupon_used_up`), the
 * coupon's count must equal it, and as many accounts must exist. Prints counts and timings;
 * exits 1 if a round admitted more or fewer.
 *
 *   node --import tsx bench/coupon-race-bench.ts [rounds=3] [attempts=50] [allowed=10]
 */
import { onBothDatabases, startBenchServer, type BenchDatabase } from './lib/bench-server';
import type { PostgresCluster } from '../tests/support/postgres-cluster';

const ROUNDS = Number(process.argv[2] ?? 3);
const ATTEMPTS = Number(process.argv[3] ?? 50);
const ALLOWED = Number(process.argv[4] ?? 10);

interface Row {
  database: BenchDatabase;
  round: number;
  admitted: number;
  refused: number;
  other: number;
  counted: number;
  accounts: number;
  wallMs: number;
  p50Ms: number;
  p99Ms: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function bench(kind: BenchDatabase, cluster?: PostgresCluster): Promise<Row[]> {
  const { server, close } = await startBenchServer(kind, cluster, 'coupon-race', {
    BETA_GATE: 'true',
    MAILER_AUTOCONFIRM: 'true',
    // The limits would refuse a crowd from one address; the race is what is measured.
    AUTH_RATE_LIMIT_SIGN_IN: '1000000',
    COUPON_ATTEMPTS_PER_10_MINUTES: '10000',
  });
  const rows: Row[] = [];
  try {
    for (let round = 1; round <= ROUNDS; round += 1) {
      const code = `RACE-${round}-${Date.now().toString(36).toUpperCase()}`;
      await server.deps.db.query(
        'insert into public.coupons (code, tier, max_redemptions) values ($1, $2, $3)',
        [code, 'free', ALLOWED],
      );
      const prefix = `race-${kind}-${round}-${Date.now().toString(36)}`;
      const started = performance.now();
      const results = await Promise.all(
        Array.from({ length: ATTEMPTS }, async (_, i) => {
          const t0 = performance.now();
          const response = await fetch(`${server.url}/auth/v1/signup`, {
            method: 'POST',
            headers: { apikey: server.deps.keys.anonKey, 'content-type': 'application/json' },
            body: JSON.stringify({
              email: `${prefix}-${i}@example.com`,
              password: 'a long enough passphrase',
              data: { coupon: code.toLowerCase() },
            }),
          });
          const body = (await response.json()) as { code?: string };
          return { status: response.status, code: body.code, ms: performance.now() - t0 };
        }),
      );
      const wallMs = performance.now() - started;
      const { rows: counted } = await server.deps.db.query<{ n: number }>(
        'select redeemed_count as n from public.coupons where code = $1',
        [code],
      );
      const { rows: accounts } = await server.deps.db.query<{ n: number }>(
        'select count(*)::int as n from auth.users where email like $1',
        [`${prefix}-%`],
      );
      const times = results.map((r) => r.ms).sort((a, b) => a - b);
      rows.push({
        database: kind,
        round,
        admitted: results.filter((r) => r.status === 200).length,
        refused: results.filter((r) => r.status === 403 && r.code === 'coupon_used_up').length,
        other: results.filter((r) => r.status !== 200 && r.code !== 'coupon_used_up').length,
        counted: counted[0]!.n,
        accounts: accounts[0]!.n,
        wallMs,
        p50Ms: percentile(times, 50),
        p99Ms: percentile(times, 99),
      });
    }
  } finally {
    await close();
  }
  return rows;
}

const rows = await onBothDatabases(bench, process.env.BENCH_DATABASE as BenchDatabase | undefined);
console.log(
  `coupon race: ${ATTEMPTS} concurrent sign-ups, one coupon allowing ${ALLOWED}, ${ROUNDS} rounds per database`,
);
console.table(
  rows.map((r) => ({
    database: r.database,
    round: r.round,
    admitted: r.admitted,
    'refused (used up)': r.refused,
    'other answers': r.other,
    'coupon count': r.counted,
    accounts: r.accounts,
    'all done (ms)': Math.round(r.wallMs),
    'p50 (ms)': Math.round(r.p50Ms),
    'p99 (ms)': Math.round(r.p99Ms),
  })),
);
const wrong = rows.filter(
  (r) =>
    r.admitted !== ALLOWED ||
    r.counted !== ALLOWED ||
    r.accounts !== ALLOWED ||
    r.refused !== ATTEMPTS - ALLOWED,
);
if (wrong.length > 0) {
  console.error(`FAILED: ${wrong.length} round(s) did not admit exactly ${ALLOWED}`);
  process.exit(1);
}
console.log(`exactly ${ALLOWED} admitted in every round`);
