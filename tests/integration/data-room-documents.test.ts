/**
 * The private data-room bucket and the document registry: who can read what, bad paths,
 * figures computed from registry and bucket, versions published by an admin, access events.
 */
import { randomUUID } from 'node:crypto';
import * as jose from 'jose';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  databaseKinds,
  signUserToken,
  type DatabaseKind,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';

const PIN = 'docs-pin-5678';

const client = (server: TestServer, token?: string) => testClient(server, server.anonKey, token);

function call(server: TestServer, path: string, token: string, init: RequestInit = {}) {
  return fetch(`${server.url}/functions/v1/data-room${path}`, {
    ...init,
    headers: {
      apikey: server.anonKey,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      ...(init.headers as Record<string, string> | undefined),
    },
  });
}

interface Overview {
  totalDocuments: number;
  categories: number;
  availableDocuments: number;
  availabilityPercent: number;
  lastUpdated: string;
  edition: string;
}

interface Doc {
  path: string;
  name: string;
  version: string;
  date: string;
  status: string;
  tab: string;
  sectionNumber: string;
}

/** A server with the seeded pack, and a visitor's grant from the PIN. */
async function openRoom(kind: DatabaseKind) {
  const server = await startTestServer(kind, { DATA_ROOM_PIN: PIN });
  const { data, error } = await client(server).functions.invoke<{
    grant: string;
    grantId: string;
  }>('data-room-access', { body: { pin: PIN } });
  if (error || !data) {
    await server.stop();
    throw new Error(`no grant: ${String(error)}`);
  }
  return { server, grant: data.grant, grantId: data.grantId };
}

describe.each(databaseKinds)('data room documents on %s', (kind) => {
  let server: TestServer;
  let grant: string;
  let grantId: string;

  beforeAll(async () => {
    ({ server, grant, grantId } = await openRoom(kind));
  });
  afterAll(() => server?.stop());

  it('lists the seeded pack: 35 documents in 8 folders, every file available', async () => {
    // The pack as seeded: a room of its own, since other tests publish versions and remove files.
    const { server, grant } = await openRoom(kind);
    onTestFinished(() => server.stop());
    const overview = (await (await call(server, '/overview', grant)).json()) as Overview;
    expect(overview).toEqual({
      totalDocuments: 35,
      categories: 8,
      availableDocuments: 35,
      availabilityPercent: 100,
      lastUpdated: '2025-10-04',
      edition: '2.0',
    });
    const { documents } = (await (await call(server, '/documents', grant)).json()) as {
      documents: Doc[];
    };
    expect(documents).toHaveLength(35);
    expect(new Set(documents.map((d) => d.path.split('/')[0]))).toEqual(
      new Set([
        'legal',
        'financial',
        'marketing',
        'technical',
        'team',
        'hr',
        'compliance',
        'due_diligence',
      ]),
    );
    expect(documents[0]).toMatchObject({
      tab: 'legal',
      sectionNumber: '1.1',
      name: 'Articles of Incorporation',
      version: '1.0',
      date: '2025-10-01',
      status: 'Available',
    });
    expect(documents.find((d) => d.path === 'financial/financial-model.md')?.version).toBe('3.0');
  });

  it('serves a document only with a grant, and records each open and download', async () => {
    const opened = await call(server, '/documents/legal/capitalization-table.md', grant);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('content-type')).toMatch(/^text\/markdown/);
    const text = await opened.text();
    expect(text.startsWith('> **Sample content**')).toBe(true);
    expect(text).toContain('# Capitalization Table');

    const downloaded = await call(
      server,
      '/documents/legal/capitalization-table.md?download=1',
      grant,
    );
    expect(downloaded.headers.get('content-disposition')).toBe(
      'attachment; filename="capitalization-table.md"',
    );
    expect(await downloaded.text()).toBe(text);

    const refused = await call(server, '/documents/legal/capitalization-table.md', server.anonKey);
    expect(refused.status).toBe(401);
    expect(await refused.text()).not.toContain('Capitalization');

    const events = await call(server, '/events', server.serviceRoleKey);
    const { events: list } = (await events.json()) as {
      events: { path: string; action: string; grantId: string; occurredAt: string }[];
    };
    expect(list.slice(0, 2)).toEqual([
      expect.objectContaining({
        path: 'legal/capitalization-table.md',
        action: 'download',
        grantId,
      }),
      expect.objectContaining({ path: 'legal/capitalization-table.md', action: 'open', grantId }),
    ]);
    expect(Date.now() - Date.parse(list[0]!.occurredAt)).toBeLessThan(60_000);
    // Visitors cannot read the access log.
    expect((await call(server, '/events', grant)).status).toBe(403);
  });

  it('keeps the bucket private: storage answers only with a grant', async () => {
    const anonymous = await client(server).storage.from('data-room').download('legal/bylaws.md');
    expect(anonymous.data).toBeNull();
    expect(anonymous.error).not.toBeNull();

    const publicUrl = client(server).storage.from('data-room').getPublicUrl('legal/bylaws.md');
    const publicAnswer = await fetch(publicUrl.data.publicUrl);
    expect(publicAnswer.status).toBeGreaterThanOrEqual(400);
    expect(await publicAnswer.text()).not.toContain('Bylaws');

    const granted = await client(server, grant)
      .storage.from('data-room')
      .download('legal/bylaws.md');
    expect(granted.error).toBeNull();
    expect(await granted.data!.text()).toContain('# Bylaws');

    const listed = await client(server).storage.from('data-room').list('legal');
    expect(listed.data ?? []).toEqual([]);
  });

  it('refuses path traversal and unknown documents with a clear error', async () => {
    for (const path of [
      '..%2F..%2Fetc%2Fpasswd',
      'legal%2F..%2F..%2Fsecret.md',
      '..%2Fdb%2Fapp%2F0200_data_room.sql',
    ]) {
      const answer = await call(server, `/documents/${path}`, grant);
      expect(answer.status).toBe(400);
      const body = (await answer.json()) as { code: string; error: string };
      expect(body.code).toBe('invalid_path');
      expect(body.error).toMatch(/relative|folder\/name\.md/);
    }
    const badShape = await call(server, '/documents/LEGAL/Bylaws.MD', grant);
    expect(badShape.status).toBe(400);

    const missing = await call(server, '/documents/legal/no-such-document.md', grant);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      error: 'No document "legal/no-such-document.md" in the data room.',
      code: 'not_found',
    });

    // supabase-js sends the path as given; an encoded ".." must not reach outside the bucket.
    const traversal = await client(server, grant)
      .storage.from('data-room')
      .download('legal%2F..%2F..%2F..%2Fpackage.json');
    expect(traversal.error).not.toBeNull();
    expect(traversal.data).toBeNull();
  });

  it('computes availability from the bucket: a missing file lowers the percentage', async () => {
    const bucket = client(server, server.serviceRoleKey).storage.from('data-room');
    const original = await bucket.download('hr/employee-handbook.md');
    expect(original.error).toBeNull();
    // Put the file back afterwards: the other tests count on the whole pack being there.
    onTestFinished(async () => {
      const restored = await bucket.upload('hr/employee-handbook.md', original.data!, {
        contentType: 'text/markdown',
        upsert: true,
      });
      expect(restored.error).toBeNull();
    });
    const removed = await bucket.remove(['hr/employee-handbook.md']);
    expect(removed.error).toBeNull();

    const overview = (await (await call(server, '/overview', grant)).json()) as Overview;
    expect(overview).toMatchObject({
      totalDocuments: 35,
      availableDocuments: 34,
      availabilityPercent: 97,
    });
    const { documents } = (await (await call(server, '/documents', grant)).json()) as {
      documents: Doc[];
    };
    expect(documents.find((d) => d.path === 'hr/employee-handbook.md')?.status).toBe('Unavailable');

    const open = await call(server, '/documents/hr/employee-handbook.md', grant);
    expect(open.status).toBe(404);
    expect(((await open.json()) as { error: string }).error).toBe(
      'The file for "Employee Handbook" is not available.',
    );
  });

  it('lets an admin publish a new version and keeps the history', async () => {
    const content = '> **Sample content**\n\n# Bylaws\n\nVersion 1.1: quorum rules clarified.\n';
    const published = await call(server, '/documents/legal/bylaws.md', server.serviceRoleKey, {
      method: 'PUT',
      body: JSON.stringify({ content, version: '1.1', date: '2025-11-02', note: 'Quorum rules' }),
    });
    expect(published.status).toBe(201);
    const body = (await published.json()) as {
      versions: { version: string; note: string | null; uploadedBy: string }[];
    };
    expect(body.versions.map((v) => v.version)).toEqual(['1.1', '1.0']);
    expect(body.versions[0]).toMatchObject({ note: 'Quorum rules', uploadedBy: 'service_role' });

    expect(await (await call(server, '/documents/legal/bylaws.md', grant)).text()).toBe(content);
    const { documents } = (await (await call(server, '/documents', grant)).json()) as {
      documents: Doc[];
    };
    expect(documents.find((d) => d.path === 'legal/bylaws.md')).toMatchObject({
      version: '1.1',
      date: '2025-11-02',
    });
    const history = (await (
      await call(server, '/versions?path=legal/bylaws.md', grant)
    ).json()) as {
      versions: { version: string }[];
    };
    expect(history.versions.map((v) => v.version)).toEqual(['1.1', '1.0']);

    const again = await call(server, '/documents/legal/bylaws.md', server.serviceRoleKey, {
      method: 'PUT',
      body: JSON.stringify({ content, version: '1.1' }),
    });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: string }).error).toMatch(/already exists/);
  });

  it('treats a signed-in admin user like the service role, and other users like visitors', async () => {
    async function userWithRole(role: 'admin' | 'learner') {
      const id = randomUUID();
      await server.deps.db.query('insert into auth.users (id, email) values ($1, $2)', [
        id,
        `${role}-${id}@example.com`,
      ]);
      await server.deps.db.query(
        `insert into public.user_roles (user_id, role) values ($1, $2) on conflict do nothing`,
        [id, role],
      );
      return signUserToken(server, id);
    }
    const admin = await userWithRole('admin');
    const learner = await userWithRole('learner');

    expect((await call(server, '/overview', admin)).status).toBe(200);
    const published = await call(server, '/documents/hr/employee-handbook.md', admin, {
      method: 'PUT',
      body: JSON.stringify({ content: '# Employee Handbook\n\nRestored.\n', version: '1.1' }),
    });
    expect(published.status).toBe(201);
    const { versions } = (await published.json()) as { versions: { uploadedBy: string }[] };
    expect(versions[0]!.uploadedBy).toBe(jose.decodeJwt(admin).sub);
    expect((await call(server, '/events', admin)).status).toBe(200);

    const refused = await call(server, '/overview', learner);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { code: string }).code).toBe('grant_required');
  });

  // The router answers an oversized body before reading it and drops the connection.
  it('refuses version uploads from visitors and bad uploads from admins', async () => {
    const put = (token: string, path: string, body: unknown) =>
      call(server, `/documents/${path}`, token, { method: 'PUT', body: JSON.stringify(body) });

    const visitor = await put(grant, 'legal/bylaws.md', { content: '# x', version: '9.0' });
    expect(visitor.status).toBe(403);

    const badVersion = await put(server.serviceRoleKey, 'legal/bylaws.md', {
      content: '# x',
      version: 'final',
    });
    expect(badVersion.status).toBe(400);
    expect(((await badVersion.json()) as { error: string }).error).toMatch(/"version"/);

    const empty = await put(server.serviceRoleKey, 'legal/bylaws.md', {
      content: '  ',
      version: '2.0',
    });
    expect(empty.status).toBe(400);

    const unknown = await put(server.serviceRoleKey, 'legal/unknown.md', {
      content: '# x',
      version: '1.0',
    });
    expect(unknown.status).toBe(404);

    const huge = await put(server.serviceRoleKey, 'legal/bylaws.md', {
      content: 'a'.repeat(1024 * 1024 + 10),
      version: '3.0',
    });
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { error: string }).error).toMatch(/at most 1048576 bytes/);

    const tooLargeForRouter = await put(server.serviceRoleKey, 'legal/bylaws.md', {
      content: 'a'.repeat(3 * 1024 * 1024),
      version: '3.0',
    });
    expect(tooLargeForRouter.status).toBe(413);
  });
});
