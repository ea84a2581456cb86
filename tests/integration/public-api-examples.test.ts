/**
 * Every example of the public API (src/server/public-api/examples.ts, shown in the OpenAPI
 * reference) run against the running server as a client would: the curl ones in bash with
 * one university's key, the supabase-js ones with the other's, in the order they are listed.
 * Then the export function's answers, good and bad (decision 0611).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import WebSocket from 'ws';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '../../src/common/api-keys';
import type { ExportRow } from '../../src/common/organization-export';
import { apiExamples } from '../../src/server/public-api/examples';
import { docPage as apiAccess } from '../../src/web/features/site/content/docs/api-access';
import {
  databaseKinds,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';
import {
  buildPublicApiWorld,
  callFunction,
  type PublicApiWorld,
  type University,
} from './public-api-world';

const run = promisify(execFile);

type ExampleScript = (
  supabase: SupabaseClient,
  API_URL: string,
  LYCEUM_API_KEY: string,
  ORG_ID: string,
  COURSE_ID: string,
  USER_ID: string,
  console: { log: (...values: unknown[]) => void },
) => Promise<void>;

const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
  ...args: string[]
) => ExampleScript;

describe.each(databaseKinds)('public API examples on %s', (kind) => {
  let server: TestServer;
  let world: PublicApiWorld;
  let keys: { a: CreatedApiKey; b: CreatedApiKey };
  let workDir: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    world = await buildPublicApiWorld(server);
    const create = async (university: University) => {
      const created = await callFunction<CreatedApiKey>(
        university.admin.client,
        'POST',
        `api-keys/organizations/${university.id}/keys`,
        { name: 'Examples' },
      );
      expect(created.status).toBe(201);
      return created.body;
    };
    keys = { a: await create(world.a), b: await create(world.b) };
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-examples-'));
  });
  afterAll(async () => {
    await server?.stop();
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  });

  const variables = (university: University, key: CreatedApiKey) => ({
    API_URL: server.url,
    LYCEUM_API_KEY: key.secret,
    ORG_ID: university.id,
    COURSE_ID: university.course,
    USER_ID: university.newcomer.id,
  });

  it.each(apiExamples.map((example, index) => [index, example.title] as const))(
    'curl example %i: %s',
    async (index) => {
      const example = apiExamples[index]!;
      const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', example.curl], {
        cwd: workDir,
        env: { ...process.env, ...variables(world.a, keys.a) },
      });
      if (!example.curl.includes(' -o ')) expect(() => JSON.parse(stdout || 'null')).not.toThrow();
    },
  );

  it.each(apiExamples.map((example, index) => [index, example.title] as const))(
    'supabase-js example %i: %s',
    async (index) => {
      const example = apiExamples[index]!;
      const v = variables(world.b, keys.b);
      const logged: unknown[][] = [];
      const script = new AsyncFunction(
        'supabase',
        'API_URL',
        'LYCEUM_API_KEY',
        'ORG_ID',
        'COURSE_ID',
        'USER_ID',
        'console',
        example.js,
      );
      await script(
        testClient(server, v.LYCEUM_API_KEY),
        v.API_URL,
        v.LYCEUM_API_KEY,
        v.ORG_ID,
        v.COURSE_ID,
        v.USER_ID,
        { log: (...values) => logged.push(values) },
      );
      if (example.js.includes('console.log')) expect(logged.length).toBe(1);
    },
  );

  const pageCode = (language: string) =>
    apiAccess.sections
      .flatMap((section) => section.blocks)
      .flatMap((block) =>
        block.type === 'code' && block.language === language ? [block.code] : [],
      );

  it('runs the curl examples of the API Access page', async () => {
    const scripts = pageCode('bash');
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      const { stdout } = await run(
        'bash',
        ['-euo', 'pipefail', '-c', `${script} --fail-with-body -sS`],
        {
          env: { ...process.env, ...variables(world.a, keys.a) },
        },
      );
      const people = JSON.parse(stdout) as { id: string }[];
      expect(people.map((p) => p.id)).toContain(world.a.learner.id);
      expect(people.map((p) => p.id)).not.toContain(world.b.learner.id);
    }
  });

  it('runs the supabase-js examples of the API Access page', async () => {
    const scripts = pageCode('ts');
    expect(scripts.length).toBeGreaterThan(1);
    const v = variables(world.a, keys.a);
    // The first snippet makes the client the later ones use; each later one gets its own scope.
    const javascript = (script: string) =>
      ts.transpileModule(script.replace(/^import .*$/gm, ''), {
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
      }).outputText;
    const [first, ...rest] = scripts.map(javascript);
    const body = [first, ...rest.map((script) => `{\n${script}\n}`)].join('\n');
    const program = new AsyncFunction(
      'createClient',
      'API_URL',
      'LYCEUM_API_KEY',
      'ORG_ID',
      body,
    ) as unknown as (...args: unknown[]) => Promise<void>;
    // supabase-js wants a global WebSocket, which Node 20 (this project's runtime) lacks and
    // Node 22 has: the snippet's client gets `ws` as its realtime transport, nothing else.
    const createClientOnNode20: typeof createClient = (url, key, options) =>
      createClient(url, key, { ...options, realtime: { transport: WebSocket as never } });
    await program(createClientOnNode20, v.API_URL, v.LYCEUM_API_KEY, v.ORG_ID);
  });

  it('left each university as the examples say: the new user in both, the member unenrolled', async () => {
    const service = server.service();
    for (const university of [world.a, world.b]) {
      const { data: enrolled } = await service
        .from('enrollments')
        .select('id')
        .eq('user_id', university.newcomer.id);
      expect(enrolled).toEqual([]);
      const { data: roles } = await service
        .from('memberships')
        .select('role, active')
        .eq('user_id', university.newcomer.id)
        .order('role');
      expect(roles).toEqual([
        { role: 'instructor', active: true },
        { role: 'learner', active: true },
      ]);
    }
    const csv = fs.readFileSync(path.join(workDir, 'organization-export.csv'), 'utf8');
    expect(csv.split('\r\n')[0]).toMatch(/^enrollment_id,user_id,learner,email/);
  });

  it("exports its own organization's enrolments, guarded against formulas, and records it", async () => {
    const api = testClient(server, keys.a.secret);
    await server
      .service()
      .from('courses')
      .update({ title: '=HYPERLINK("http://evil.example","x")' })
      .eq('id', world.a.course);
    const json = await callFunction<ExportRow[]>(
      api,
      'GET',
      `org-export/organizations/${world.a.id}?format=json`,
    );
    expect(json.status).toBe(200);
    expect(json.body.map((row) => row.user_id)).toEqual([world.a.learner.id]);
    expect(json.body[0]).toMatchObject({ course_id: world.a.course, graded_attempts: 1 });
    const csv = await fetch(
      `${server.url}/functions/v1/org-export/organizations/${world.a.id}?format=csv`,
      { headers: { apikey: keys.a.secret, Authorization: `Bearer ${keys.a.secret}` } },
    );
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    const text = await csv.text();
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(text).not.toContain(world.b.learner.id);
    const { rows } = await server.deps.db.query<{ n: number }>(
      `select count(*)::int as n from public.audit_log
        where action = 'organization.export' and organization_id = $1`,
      [world.a.id],
    );
    expect(rows[0]!.n).toBeGreaterThanOrEqual(2);
  });

  it("refuses the other organization's export and bad filters clearly", async () => {
    const api = testClient(server, keys.a.secret);
    const foreign = await callFunction(api, 'GET', `org-export/organizations/${world.b.id}`);
    expect(foreign.status).toBe(403);
    const cases: [string, RegExp][] = [
      ['format=xml', /format is json or csv/],
      ['enrolled_from=yesterday', /YYYY-MM-DD/],
      ['course_id=42', /course_id/],
      ['colour=blue', /colour/],
      [`course_id=${world.b.course}`, /not part of the organization/],
    ];
    for (const [query, message] of cases) {
      const answer = await callFunction(
        api,
        'GET',
        `org-export/organizations/${world.a.id}?${query}`,
      );
      expect(answer.status, query).toBe(400);
      expect(answer.body.error, query).toMatch(message);
    }
    const learner = await callFunction(
      world.a.learner.client,
      'GET',
      `org-export/organizations/${world.a.id}`,
    );
    expect(learner.status).toBe(403);
    const anonymous = await callFunction(
      server.anon(),
      'GET',
      `org-export/organizations/${world.a.id}`,
    );
    expect(anonymous.status).toBe(403);
  });
});
