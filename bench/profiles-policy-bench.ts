/**
 * The `profiles` read policy at scale (decision 0614): an organization of MEMBERS people, each
 * enrolled in ENROLMENTS of its 1,000 courses, read as the organization's API key with the role
 * and claims the gateway sets. It times the statements the public API runs (a page of 100 by
 * name, one profile by id) and the policy's set alone, on PostgreSQL, so the statement's cost is
 * seen without HTTP in front of it; `bench/public-api-bench.ts` measures the endpoint.
 *
 *   node --import tsx bench/profiles-policy-bench.ts [members=100000] [enrolments-per-member=10] [runs=7]
 */
import os from 'node:os';
import { API_KEY_CLAIM, createOrganizationKey } from '../src/server/public-api/organization-keys';
import { startPostgresCluster } from '../tests/support/postgres-cluster';
import { startBenchServer } from './lib/bench-server';

const MEMBERS = Number(process.argv[2] ?? 100_000);
const ENROLMENTS = Number(process.argv[3] ?? 10);
const RUNS = Number(process.argv[4] ?? 7);
const COURSES = 1_000;
const BATCH = 20_000;

const userId = (n: string) => `md5('u' || (${n})::text)::uuid`;
const ORG = `md5('policy-org')::uuid`;
const OWNER = `md5('policy-owner')::uuid`;

const statements: Record<string, string> = {
  'first page of 100 by name': `select id, full_name from public.profiles order by full_name, id limit 100`,
  'one profile by id': `select full_name from public.profiles where id = ${userId('5')}`,
  'the set alone': `select count(*) from learning.people_overseen_in_bulk((select auth.uid()))`,
};

function log(message: string) {
  process.stderr.write(`[profiles-policy-bench] ${message}\n`);
}

async function main() {
  const loadBefore = os.loadavg()[0]!;
  const cluster = await startPostgresCluster();
  const { server, close } = await startBenchServer('postgres', cluster, 'profiles-policy');
  try {
    const { db } = server.deps;
    // Triggers stay off while seeding: rows are written directly.
    const bulk = (text: string, params: unknown[] = []) =>
      db.transaction(async (tx) => {
        await tx.query('set local session_replication_role = replica');
        await tx.query(text, params);
      });
    const inBatches = async (text: string) => {
      for (let from = 1; from <= MEMBERS; from += BATCH)
        await bulk(text, [from, Math.min(MEMBERS, from + BATCH - 1)]);
    };
    log(`seeding ${MEMBERS.toLocaleString()} members, ${ENROLMENTS} enrolments each`);
    await bulk(`insert into auth.users (id, email) values (${OWNER}, 'owner@policy-bench.test')`);
    await bulk(`insert into public.profiles (id, full_name) values (${OWNER}, 'Olga Owner')`);
    await inBatches(
      `insert into auth.users (id, email) select ${userId('g')}, 'u' || g || '@policy-bench.test'
         from generate_series($1::int, $2::int) g`,
    );
    await inBatches(
      `insert into public.profiles (id, full_name) select ${userId('g')}, 'Person ' || g
         from generate_series($1::int, $2::int) g`,
    );
    await bulk(`insert into public.organizations (id, name, slug, owner_id)
                values (${ORG}, 'Policy Bench University', 'policy-bench', ${OWNER})`);
    await bulk(`insert into public.memberships (user_id, organization_id, role)
                values (${OWNER}, ${ORG}, 'org_admin')`);
    await inBatches(
      `insert into public.memberships (user_id, organization_id, role)
       select ${userId('g')}, ${ORG}, 'learner' from generate_series($1::int, $2::int) g`,
    );
    await bulk(`insert into public.courses (id, title, owner_id, organization_id, published)
                select md5('c' || c)::uuid, 'Course ' || c, ${OWNER}, ${ORG}, true
                  from generate_series(1, ${COURSES}) c`);
    if (ENROLMENTS > 0)
      await inBatches(
        `insert into public.enrollments (user_id, course_id)
         select ${userId('g')}, md5('c' || ((g + k) % ${COURSES} + 1))::uuid
           from generate_series($1::int, $2::int) g, generate_series(1, ${ENROLMENTS}) k`,
      );
    await db.query('analyze');
    const { rows } = await db.query<{ org: string; owner: string }>(
      `select ${ORG}::text as org, ${OWNER}::text as owner`,
    );
    const { key } = await createOrganizationKey(
      db,
      server.deps.keys.current,
      rows[0]!.owner,
      rows[0]!.org,
      'Policy bench',
    );
    const { rows: principal } = await db.query<{ id: string }>(
      'select principal_id::text as id from platform.organization_api_keys where id = $1',
      [key.id],
    );
    const claims = {
      role: 'authenticated' as const,
      sub: principal[0]!.id,
      [API_KEY_CLAIM]: key.id,
      organization_id: rows[0]!.org,
    };

    const table: Record<string, { 'median ms': number; 'min ms': number; rows: number }> = {};
    for (const [label, sql] of Object.entries(statements)) {
      const times: number[] = [];
      let count = 0;
      // One transaction per statement, as the gateway runs them; the first run warms caches.
      for (let i = 0; i <= RUNS; i++) {
        const started = performance.now();
        const result = await db.asRole(claims, (tx) => tx.query(sql));
        if (i > 0) times.push(performance.now() - started);
        count = result.rows.length;
      }
      times.sort((a, b) => a - b);
      table[label] = {
        'median ms': Number(times[Math.floor(times.length / 2)]!.toFixed(1)),
        'min ms': Number(times[0]!.toFixed(1)),
        rows: count,
      };
    }
    console.log(
      `profiles read policy as an organization API key: ${MEMBERS.toLocaleString()} members, ` +
        `${(MEMBERS * ENROLMENTS).toLocaleString()} enrolments in ${COURSES} courses, ` +
        `PostgreSQL, ${RUNS} runs each`,
    );
    console.table(table);
  } finally {
    await close();
    await cluster.stop();
  }
  const loadAfter = os.loadavg()[0]!;
  console.log(
    `Machine: ${os.cpus().length} cores, load average ${loadBefore.toFixed(1)} before and ` +
      `${loadAfter.toFixed(1)} after${
        loadBefore > os.cpus().length || loadAfter > os.cpus().length
          ? ' — loaded by other work: the timings are not representative'
          : ''
      }.`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
