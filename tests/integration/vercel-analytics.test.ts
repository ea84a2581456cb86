/**
 * POST /functions/v1/vercel-analytics through supabase-js against a local fake Vercel API.
 */
import { FunctionsHttpError } from '@supabase/supabase-js';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  fakeAnalytics,
  fakeProjects,
  startFakeVercel,
  type FakeVercel,
} from '../support/fake-vercel';
import { randomUUID } from 'node:crypto';
import {
  databaseKinds,
  signUserToken,
  startTestServer,
  type TestServer,
} from '../support/test-server';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function invoke(server: TestServer, searchParams: unknown): Promise<Answer> {
  const { data, error } = await server
    .anon()
    .functions.invoke('vercel-analytics', { body: { searchParams } });
  if (error) {
    expect(error).toBeInstanceOf(FunctionsHttpError);
    const response = (error as FunctionsHttpError).context as Response;
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  return { status: 200, body: data as Record<string, unknown> };
}

/** Calls the function as the holder of `token` (a user's access token or the service key). */
async function callWithToken(server: TestServer, token: string): Promise<Answer> {
  const response = await fetch(`${server.url}/functions/v1/vercel-analytics`, {
    method: 'POST',
    headers: {
      apikey: server.anonKey,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ searchParams: 'endpoint=projects' }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** This process's request and error counts of the functions service, as the chart reads them. */
function requestCounts(server: TestServer): { total: number; errors: number } {
  const rows = server.deps.metrics.snapshot().filter((row) => row.service === 'functions');
  return {
    total: rows.reduce((sum, row) => sum + row.requests, 0),
    errors: rows.reduce((sum, row) => sum + row.errors, 0),
  };
}

describe.each(databaseKinds)('vercel-analytics function on %s', (kind) => {
  let fake: FakeVercel;
  let server: TestServer;
  let unconfigured: TestServer;

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    fake = await startFakeVercel();
    server = await startTestServer(kind, {
      VERCEL_TOKEN: fake.token,
      VERCEL_API_URL: fake.url,
      VERCEL_TEAM_ID: 'team_fake',
    });
    unconfigured = await startTestServer(kind, { VERCEL_API_URL: fake.url });
  });
  afterAll(async () => {
    vi.useRealTimers();
    await server?.stop();
    await unconfigured?.stop();
    await fake?.close();
  });
  beforeEach(() => {
    fake.setMode('ok');
    fake.requests.length = 0;
    // The function shares provider answers for 15 s; each test starts past that period.
    vi.setSystemTime(Date.now() + 60_000);
  });

  it('lists projects with the server-side token and team', async () => {
    const { status, body } = await invoke(server, 'endpoint=projects');
    expect(status).toBe(200);
    expect(body.projects).toEqual(
      fakeProjects.map((p) => ({
        id: p.id,
        name: p.name,
        framework: p.framework,
        updatedAt: p.updatedAt,
      })),
    );
    expect(body.message).toBeUndefined();
    expect(fake.requests).toEqual([
      {
        path: '/v9/projects',
        query: { limit: '100', teamId: 'team_fake' },
        authorization: `Bearer ${fake.token}`,
      },
    ]);
  });

  it('lists the most recent deployments, newest first, with the requested limit', async () => {
    const { status, body } = await invoke(server, 'endpoint=deployments&limit=5');
    expect(status).toBe(200);
    const deployments = body.deployments as { uid: string; state: string; created: number }[];
    expect(deployments).toHaveLength(5);
    expect(deployments.map((d) => d.state)).toEqual([
      'BUILDING',
      'READY',
      'ERROR',
      'CANCELED',
      'READY',
    ]);
    expect(deployments[0]).toEqual({
      id: 'dpl_fake1',
      uid: 'dpl_fake1',
      name: 'lyceum-web',
      url: 'lyceum-web-1.vercel.app',
      state: 'BUILDING',
      created: expect.any(Number),
    });
    expect([...deployments].sort((a, b) => b.created - a.created)).toEqual(deployments);
    expect(fake.requests[0]).toMatchObject({
      path: '/v6/deployments',
      query: { limit: '5', teamId: 'team_fake' },
    });
  });

  it('reads page views and visitors for a project over the last 24 hours', async () => {
    const { status, body } = await invoke(server, {
      endpoint: 'analytics',
      projectId: fakeProjects[0]!.id,
    });
    expect(status).toBe(200);
    expect(body.analytics).toEqual({
      requests: null,
      bandwidth: null,
      visitors: fakeAnalytics.visitors,
      pageViews: fakeAnalytics.pageviews,
      windowHours: 24,
    });
    const query = fake.requests[0]!.query;
    expect(fake.requests[0]!.path).toBe('/v1/query/web-analytics/visits/count');
    expect(query.projectId).toBe(fakeProjects[0]!.id);
    expect(Number(query.until) - Number(query.since)).toBe(24 * 3_600_000);
  });

  it('shares one provider call between callers within the cache period', async () => {
    const first = await invoke(server, 'endpoint=deployments&limit=3');
    const again = await Promise.all([
      invoke(server, 'endpoint=deployments&limit=3'),
      invoke(server, 'endpoint=deployments&limit=3'),
    ]);
    expect(again.map((a) => a.body)).toEqual([first.body, first.body]);
    expect(fake.requests).toHaveLength(1);
    vi.setSystemTime(Date.now() + 16_000);
    await invoke(server, 'endpoint=deployments&limit=3');
    expect(fake.requests).toHaveLength(2);
  });

  it('reports a provider failure as "Failed to fetch {endpoint}" with empty lists and zero analytics', async () => {
    fake.setMode('fail');
    const projects = await invoke(server, 'endpoint=projects');
    expect(projects).toEqual({
      status: 502,
      body: {
        error: 'Failed to fetch projects: An unexpected internal error occurred (HTTP 500)',
        code: 'provider_error',
        projects: [],
      },
    });
    const deployments = await invoke(server, 'endpoint=deployments&limit=5');
    expect(deployments.status).toBe(502);
    expect(deployments.body).toMatchObject({
      error: expect.stringMatching(/^Failed to fetch deployments: /),
      deployments: [],
    });
    const analytics = await invoke(server, `endpoint=analytics&projectId=${fakeProjects[0]!.id}`);
    expect(analytics.status).toBe(502);
    expect(analytics.body).toMatchObject({
      error: expect.stringMatching(/^Failed to fetch analytics: /),
      analytics: { requests: 0, bandwidth: 0, visitors: 0, pageViews: 0 },
    });
  });

  it('says when the token sees no projects', async () => {
    fake.setMode('empty');
    const { status, body } = await invoke(server, 'endpoint=projects');
    expect(status).toBe(200);
    expect(body).toEqual({
      projects: [],
      message: 'No Vercel projects found. Check your API token permissions.',
    });
  });

  it("passes on the provider's own error for an unknown project", async () => {
    const { status, body } = await invoke(server, 'endpoint=analytics&projectId=prj_unknown');
    expect(status).toBe(502);
    expect(body.error).toBe('Failed to fetch analytics: Project not found (HTTP 404)');
  });

  it('refuses bad input with a clear message and without calling the provider', async () => {
    const unknown = await invoke(server, 'endpoint=teams');
    expect(unknown).toEqual({
      status: 400,
      body: {
        error: 'Unknown endpoint "teams": use projects, deployments or analytics',
        code: 'invalid_request',
      },
    });
    expect((await invoke(server, 'endpoint=deployments&limit=0')).status).toBe(400);
    expect((await invoke(server, 'endpoint=analytics&projectId=../../v2/user')).status).toBe(400);
    expect((await invoke(server, 42)).status).toBe(400);

    const malformed = await fetch(`${server.url}/functions/v1/vercel-analytics`, {
      method: 'POST',
      headers: {
        apikey: server.anonKey,
        authorization: `Bearer ${server.anonKey}`,
        'content-type': 'application/json',
      },
      body: '{"searchParams":',
    });
    expect(malformed.status).toBe(400);
    expect(fake.requests).toEqual([]);
  });

  it('answers "not configured" as a normal answer, with setup steps only for operators', async () => {
    const visitor = await invoke(unconfigured, 'endpoint=projects');
    expect(visitor).toEqual({
      status: 200,
      body: { configured: false, message: 'Hosting analytics is not configured.', projects: [] },
    });
    const deployments = await invoke(unconfigured, 'endpoint=deployments&limit=5');
    expect(deployments.status).toBe(200);
    expect(deployments.body).toMatchObject({ configured: false, deployments: [] });

    // A signed-in user without the admin role is a visitor too.
    const learnerId = randomUUID();
    await unconfigured.deps.db.query('insert into auth.users (id, email) values ($1, $2)', [
      learnerId,
      `learner-${learnerId}@example.com`,
    ]);
    const learner = await callWithToken(unconfigured, await signUserToken(unconfigured, learnerId));
    expect(learner.body.setup).toBeUndefined();

    const adminId = randomUUID();
    await unconfigured.deps.db.query('insert into auth.users (id, email) values ($1, $2)', [
      adminId,
      `admin-${adminId}@example.com`,
    ]);
    await unconfigured.deps.db.query(
      `insert into public.user_roles (user_id, role) values ($1, 'admin')`,
      [adminId],
    );
    const admin = await callWithToken(unconfigured, await signUserToken(unconfigured, adminId));
    expect(admin.status).toBe(200);
    expect(admin.body).toMatchObject({ configured: false });
    expect(admin.body.setup).toContain('VERCEL_TOKEN');
    const service = await callWithToken(unconfigured, unconfigured.serviceRoleKey);
    expect(service.body.setup).toContain('VERCEL_TOKEN');

    // Bad input is still refused before anything else.
    expect((await invoke(unconfigured, 'endpoint=teams')).status).toBe(400);
    expect(fake.requests).toEqual([]);
  });

  it('does not count "not configured" as an error in the public request figures', async () => {
    const before = await requestCounts(unconfigured);
    for (let i = 0; i < 3; i += 1) await invoke(unconfigured, 'endpoint=projects');
    const after = await requestCounts(unconfigured);
    expect(after.total - before.total).toBeGreaterThanOrEqual(3);
    expect(after.errors).toBe(before.errors);
  });
});
