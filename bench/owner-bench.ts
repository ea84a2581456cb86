/**
 * The owner's screens at scale (decision 0140): seeds one organization on a throwaway
 * PostgreSQL cluster with MEMBERS learners spread over ten boards (each also a member of the
 * whole organization, as an admin's import would make them), then measures through supabase-js
 * with RLS on, one client at a time, as the owner:
 *   - board_overview (the boards screen's counts),
 *   - organization_people: the first page, a search by address, one board's first page and a
 *     page deep in the list (the "All users" screen).
 *
 *   node --import tsx bench/owner-bench.ts [seconds-per-case] [members]
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import * as jose from 'jose';
import type { RunningServer } from '../src/server/start';
import { startPostgresCluster } from '../tests/support/postgres-cluster';
import { startBenchServer } from './lib/bench-server';
import { measureLoop, type Measurement } from './lib/measure';

const SECONDS = Number(process.argv[2] ?? 5);
const MEMBERS = Number(process.argv[3] ?? 100_000);
const BOARDS = 10;
const BATCH = 20_000;

function log(message: string) {
  process.stderr.write(`[owner-bench] ${message}\n`);
}

const memberId = (n: string) => `md5('p' || (${n})::text)::uuid`;
const boardId = (n: string) => `md5('b' || (${n})::text)::uuid`;
const ORG = `md5('owner-org')::uuid`;
const OWNER = `md5('owner')::uuid`;

async function seed(server: RunningServer) {
  const { db } = server.deps;
  // Triggers stay off while seeding (role rows and counters are not what is measured).
  const bulk = (text: string, params: unknown[] = []) =>
    db.transaction(async (tx) => {
      await tx.query('set local session_replication_role = replica');
      await tx.query(text, params);
    });
  const inBatches = async (text: string) => {
    for (let from = 1; from <= MEMBERS; from += BATCH) {
      await bulk(text, [from, Math.min(MEMBERS, from + BATCH - 1)]);
    }
  };
  await bulk(`insert into auth.users (id, email) values (${OWNER}, 'owner@bench.test')`);
  await inBatches(
    `insert into auth.users (id, email) select ${memberId('g')}, 'p' || g || '@bench.test'
       from generate_series($1::int, $2::int) g`,
  );
  await inBatches(
    `insert into public.profiles (id, full_name) select ${memberId('g')}, 'Person ' || g
       from generate_series($1::int, $2::int) g`,
  );
  await bulk(`insert into public.organizations (id, name, slug, owner_id)
              values (${ORG}, 'Bench University', 'bench', ${OWNER})`);
  await bulk(`insert into public.memberships (user_id, organization_id, role)
              values (${OWNER}, ${ORG}, 'org_admin')`);
  await bulk(
    `insert into public.boards (id, organization_id, name, slug)
     select ${boardId('g')}, ${ORG}, 'Board ' || g, 'board-' || g from generate_series(1, $1::int) g`,
    [BOARDS],
  );
  await inBatches(
    `insert into public.memberships (user_id, organization_id, board_id, role)
     select ${memberId('g')}, ${ORG}, ${boardId(`g % ${BOARDS} + 1`)}, 'learner'
       from generate_series($1::int, $2::int) g`,
  );
  await inBatches(
    `insert into public.memberships (user_id, organization_id, role)
     select ${memberId('g')}, ${ORG}, 'learner' from generate_series($1::int, $2::int) g`,
  );
  await db.query('analyze');
}

class RealtimeUnused {
  constructor() {
    throw new Error('realtime is not used by this bench');
  }
}

async function clientFor(server: RunningServer, sub: string): Promise<SupabaseClient> {
  const key = server.deps.keys.current;
  const token = await new jose.SignJWT({ role: 'authenticated', sub, aud: 'authenticated' })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(key.privateKey);
  return createClient(server.url, server.deps.keys.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers: { Authorization: `Bearer ${token}` } },
    realtime: { transport: RealtimeUnused as never },
  });
}

function expectRows(min: number, max: number) {
  return ({ data, error }: { data: unknown; error: { message: string } | null }) => {
    if (error) throw new Error(error.message);
    const n = Array.isArray(data) ? data.length : 0;
    if (n < min || n > max) throw new Error(`expected ${min}–${max} rows, got ${n}`);
  };
}

function row(label: string, m: Measurement) {
  return {
    case: label,
    'req/s': Math.round(m.requestsPerSecond),
    'p50 ms': Number(m.p50Ms.toFixed(1)),
    'p99 ms': Number(m.p99Ms.toFixed(1)),
    errors: m.errors,
  };
}

async function main() {
  const cluster = await startPostgresCluster();
  try {
    const bench = await startBenchServer('postgres', cluster, 'owner', {
      NODE_ENV: 'production',
      DATABASE_POOL_SIZE: '10',
      API_RATE_LIMIT_PER_SECOND: '100000000',
    });
    const { server } = bench;
    try {
      log(`seeding ${MEMBERS.toLocaleString()} members over ${BOARDS} boards`);
      await seed(server);
      const { rows } = await server.deps.db.query<{ owner: string; org: string; board: string }>(
        `select ${OWNER}::text as owner, ${ORG}::text as org, ${boardId('1')}::text as board`,
      );
      const { owner, org, board } = rows[0]!;
      const client = await clientFor(server, owner);
      const people = (args: Record<string, unknown>) =>
        client.rpc('organization_people', { organization_id: org, page_size: 25, ...args });
      const cases: { label: string; run: () => Promise<void> }[] = [
        {
          label: 'board_overview',
          run: async () =>
            expectRows(
              BOARDS,
              BOARDS,
            )(await client.rpc('board_overview', { organization_id: org })),
        },
        {
          label: 'people: first page',
          run: async () => expectRows(25, 25)(await people({})),
        },
        {
          label: 'people: search by address',
          run: async () => expectRows(1, 25)(await people({ search: 'p4242@' })),
        },
        {
          label: 'people: one board, first page',
          run: async () => expectRows(25, 25)(await people({ board_id: board })),
        },
        {
          label: 'people: a page in the middle',
          run: async () =>
            expectRows(25, 25)(await people({ page_offset: Math.floor(MEMBERS / 2) })),
        },
      ];
      const results = [];
      for (const c of cases) {
        await measureLoop(c.run, { connections: 1, seconds: 1 });
        results.push(row(c.label, await measureLoop(c.run, { connections: 1, seconds: SECONDS })));
      }
      console.log(
        `Owner screens through supabase-js on PostgreSQL: ${MEMBERS.toLocaleString()} members ` +
          `(two memberships each) over ${BOARDS} boards, one client`,
      );
      console.table(results);
    } finally {
      await bench.close();
    }
  } finally {
    await cluster.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
