/**
 * Export and erasure from the personal-data registry (issue 16, decision 0421) through
 * supabase-js and the privacy function, on PGlite and PostgreSQL: the registry names every
 * column that names a person; an admin queues an access export, the job zips the person's rows
 * (JSON and CSV) and files with a README, and only the person downloads it, through a signed
 * link that expires; erasure is refused under a legal hold and for one's own account, then
 * deletes or anonymises per the registry, removes the files, leaves no row naming the person
 * but what the law keeps, keeps the audit chain whole, and a follow-up export is empty.
 */
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signExportLink } from '../../src/server/compliance/export-link';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { createPrivacyUser, type PrivacyUser } from './privacy-support';

/** A column names a person when it references an account or is called like one. */
const personColumn =
  /^(user_id|owner|owner_id|author_id|subject_user_id|learner_id|patient_id|instructor_id|member_id|[a-z_]+_by)$/;

/** Tables and columns kept after an erasure, and why (the registry says so too). */
const keptAfterErasure = [
  'public.audit_log',
  // The audit log's daily counts name the person as its entries do (decision 0431).
  'audit.access_daily',
  'public.data_subject_requests',
  'privacy.legal_holds',
];

const png = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52,
]);

describe.each(databaseKinds)('personal data export and erasure on %s', (kind) => {
  let server: TestServer;
  let learner: PrivacyUser;
  let admin: PrivacyUser;
  let stranger: PrivacyUser;
  let held: PrivacyUser;
  let platformAdmin: PrivacyUser;
  let org: string;

  const db = () => server.deps.db;
  const call = (who: PrivacyUser, method: 'GET' | 'POST', path: string, body?: object) =>
    fetch(`${server.url}/functions/v1/privacy${path}`, {
      method,
      headers: {
        apikey: server.anonKey,
        authorization: `Bearer ${who.token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });

  async function file(who: PrivacyUser, type: string): Promise<string> {
    const { data, error } = await who.client.rpc('create_data_subject_request', { type });
    expect(error).toBeNull();
    return (data as { id: string }).id;
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    learner = await createPrivacyUser(server, 'erased');
    admin = await createPrivacyUser(server, 'handler');
    stranger = await createPrivacyUser(server, 'stranger');
    held = await createPrivacyUser(server, 'held');
    platformAdmin = await createPrivacyUser(server, 'platform');
    const service = server.service();
    const created = await service
      .from('organizations')
      .insert({ name: 'Erasure U', slug: `erasure-${kind}` })
      .select('id')
      .single();
    org = created.data!.id as string;
    const memberships = await service.from('memberships').insert([
      { user_id: learner.id, organization_id: org, role: 'learner' },
      { user_id: held.id, organization_id: org, role: 'learner' },
      { user_id: admin.id, organization_id: org, role: 'org_admin' },
    ]);
    expect(memberships.error).toBeNull();
    await db().query("insert into public.user_roles (user_id, role) values ($1, 'admin')", [
      platformAdmin.id,
    ]);
    const note = await learner.client
      .from('notes')
      .insert({ title: 'Photosynthesis', body: '=1+2 light makes sugar' });
    expect(note.error).toBeNull();
    const consent = await learner.client.rpc('set_user_consent', {
      choices: { analytics: false, marketing: false, functional: true },
      policy_version: '2026-11-23',
      source: 'banner',
    });
    expect(consent.error).toBeNull();
    const avatar = await learner.client.storage
      .from('avatars')
      .upload(`${learner.id}/avatar.png`, new Blob([png], { type: 'image/png' }));
    expect(avatar.error).toBeNull();
  });
  afterAll(() => server?.stop());

  it('names every column that names a person in the registry', async () => {
    const { rows } = await db().query<{ table_name: string; column_name: string }>(
      `select n.nspname || '.' || c.relname as table_name, a.attname as column_name
         from pg_attribute a
         join pg_class c on c.oid = a.attrelid and c.relkind in ('r', 'p')
         join pg_namespace n on n.oid = c.relnamespace
        where a.attnum > 0 and not a.attisdropped
          and n.nspname not in ('pg_catalog', 'information_schema', 'pgboss')
          and (a.atttypid = 'uuid'::regtype and a.attname ~ $1
               or exists (select 1 from pg_constraint k
                           where k.conrelid = c.oid and k.contype = 'f'
                             and k.confrelid = 'auth.users'::regclass and a.attnum = any (k.conkey)))
        order by 1, 2`,
      [personColumn.source],
    );
    const { rows: registry } = await db().query<{ table_name: string; subject_column: string }>(
      'select table_name, subject_column from privacy.personal_data',
    );
    const named = new Set(registry.map((r) => `${r.table_name}.${r.subject_column}`));
    const missing = rows
      .map((r) => `${r.table_name}.${r.column_name}`)
      .filter((column) => !named.has(column));
    expect(missing, 'add these to privacy.personal_data (decision 0421)').toEqual([]);
    expect(rows.length).toBeGreaterThan(40);
  });

  it('exports a zip of the person’s data that only they download, through a link that expires', async () => {
    const requestId = await file(learner, 'access');
    const refused = await call(stranger, 'POST', '/exports', { requestId });
    expect(refused.status).toBe(404);
    const queued = await call(admin, 'POST', '/exports', { requestId });
    expect(queued.status).toBe(202);
    const { exportId } = (await queued.json()) as { exportId: string };
    const again = await call(admin, 'POST', '/exports', { requestId });
    expect([202, 409]).toContain(again.status);

    await expect
      .poll(
        async () =>
          (
            await db().query<{ status: string }>(
              'select status from privacy.data_exports where id = $1',
              [exportId],
            )
          ).rows[0]?.status,
        { timeout: 60_000, interval: 250 },
      )
      .toBe('ready');

    const listed = await call(learner, 'GET', '/exports');
    expect(await listed.json()).toEqual([
      expect.objectContaining({ id: exportId, request_id: requestId, status: 'ready' }),
    ]);
    expect(await (await call(stranger, 'GET', '/exports')).json()).toEqual([]);
    const { data: answered } = await learner.client
      .from('data_subject_requests')
      .select('status, resolution')
      .eq('id', requestId)
      .single();
    expect(answered).toMatchObject({ status: 'completed' });
    expect(answered!.resolution).toMatch(/^Your data is ready: download it from the Privacy page/);

    const adminLink = await call(admin, 'GET', `/exports/${exportId}/link`);
    expect(adminLink.status).toBe(403);
    const linkResponse = await call(learner, 'GET', `/exports/${exportId}/link`);
    expect(linkResponse.status).toBe(200);
    const { url, expiresAt } = (await linkResponse.json()) as { url: string; expiresAt: string };
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    const token = new URL(url, server.url).searchParams.get('token')!;

    const byOther = await call(stranger, 'GET', `/exports/download?token=${token}`);
    expect(byOther.status).toBe(403);
    expect(await byOther.json()).toMatchObject({
      error: 'This download link is for another account.',
    });
    const forged = await call(learner, 'GET', `/exports/download?token=${token.slice(0, -4)}abcd`);
    expect(forged.status).toBe(403);
    const stale = await signExportLink(
      server.deps.keys,
      exportId,
      learner.id,
      new Date(Date.now() - 1000),
    );
    const expired = await call(learner, 'GET', `/exports/download?token=${stale}`);
    expect(expired.status).toBe(410);
    expect(await expired.json()).toMatchObject({
      error: 'This download link has expired: ask for a new one on your Privacy page.',
    });

    const download = await call(learner, 'GET', `/exports/download?token=${token}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/zip');
    const zip = unzipSync(new Uint8Array(await download.arrayBuffer()));
    expect(strFromU8(zip['README.md']!)).toContain(`for the account ${learner.id}`);
    const notes = JSON.parse(strFromU8(zip['data/public-notes.json']!)) as { title: string }[];
    expect(notes.map((n) => n.title)).toEqual(['Photosynthesis']);
    expect(strFromU8(zip['data/public-notes.csv']!)).toContain("'=1+2 light makes sugar");
    const consent = JSON.parse(strFromU8(zip['data/public-user_consent.json']!)) as unknown[];
    expect(consent).toHaveLength(4);
    const users = JSON.parse(strFromU8(zip['data/auth-users.json']!)) as Record<string, unknown>[];
    expect(users[0]).toMatchObject({ id: learner.id, email: learner.email });
    expect(Object.keys(users[0]!).filter((k) => /password|token/.test(k))).toEqual([]);
    expect(zip[`files/avatars/${learner.id}/avatar.png`]).toEqual(png);
    const everything = Object.values(zip)
      .map((bytes) => strFromU8(bytes))
      .join('\n');
    expect(everything).not.toMatch(/\$argon2/);

    const { rows: audit } = await db().query<{ action: string }>(
      `select action from public.audit_log where record_id = $1 order by id`,
      [exportId],
    );
    expect(audit.map((a) => a.action)).toEqual(['privacy.export', 'privacy.export_download']);
  });

  it('refuses an export for an erasure request and a request that is not there', async () => {
    const erasure = await file(stranger, 'erasure');
    await db().query(
      "insert into public.memberships (user_id, organization_id, role) values ($1, $2, 'learner')",
      [stranger.id, org],
    );
    const wrongType = await call(admin, 'POST', '/exports', { requestId: erasure });
    expect(wrongType.status).toBe(400);
    expect(await wrongType.json()).toMatchObject({
      error: 'Only an access or portability request is answered with an export',
    });
    const missing = await call(admin, 'POST', '/exports', {
      requestId: '00000000-0000-4000-8000-000000000000',
    });
    expect(missing.status).toBe(404);
    const bad = await call(admin, 'POST', '/exports', { requestId: 'nope' });
    expect(bad.status).toBe(400);
  });

  it('refuses erasure under a legal hold, and of one’s own account', async () => {
    const requestId = await file(held, 'erasure');
    const hold = await platformAdmin.client.rpc('place_legal_hold', {
      person: held.id,
      reason: 'Grade appeal before the board',
    });
    expect(hold.error).toBeNull();
    const byOrgAdmin = await admin.client.rpc('place_legal_hold', {
      person: held.id,
      reason: 'x y z',
    });
    expect(byOrgAdmin.error?.code).toBe('42501');
    const refused = await call(admin, 'POST', '/erasures', { requestId });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /^This account is under a legal hold since \d{4}-\d{2}-\d{2}: Grade appeal before the board$/,
    );
    const own = await call(held, 'POST', '/erasures', { requestId });
    expect(own.status).toBe(404);
    const released = await platformAdmin.client.rpc('release_legal_hold', {
      person: held.id,
      reason: 'The appeal was decided',
    });
    expect(released.error).toBeNull();
  });

  it('erases per the registry: nothing names the person but what the law keeps, and a new export is empty', async () => {
    const requestId = await file(learner, 'erasure');
    const queued = await call(admin, 'POST', '/erasures', { requestId });
    expect(queued.status).toBe(202);
    await expect
      .poll(
        async () =>
          (
            await db().query<{ status: string }>(
              'select status from public.data_subject_requests where id = $1',
              [requestId],
            )
          ).rows[0]?.status,
        { timeout: 60_000, interval: 250 },
      )
      .toBe('completed');

    const { rows: request } = await db().query<{ resolution: string; details: string }>(
      'select resolution, details from public.data_subject_requests where id = $1',
      [requestId],
    );
    expect(request[0]!.resolution).toMatch(/^Your account was erased: \d+ records deleted/);
    expect(request[0]!.resolution).toContain('2 stored files removed');

    // Every row of every table, as text: none names the person's id or email, except the kept ones.
    const { rows: tables } = await db().query<{ name: string }>(
      `select format('%I.%I', n.nspname, c.relname) as name
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema', 'pgboss')
        order by 1`,
    );
    const naming: string[] = [];
    for (const { name } of tables) {
      if (keptAfterErasure.includes(name.replace(/"/g, ''))) continue;
      const { rows } = await db().query<{ n: number }>(
        `select count(*)::int as n from ${name} t
          where strpos(to_jsonb(t)::text, $1) > 0 or strpos(lower(to_jsonb(t)::text), lower($2)) > 0`,
        [learner.id, learner.email],
      );
      if (rows[0]!.n > 0) naming.push(`${name}: ${rows[0]!.n}`);
    }
    expect(naming).toEqual([]);

    const { rows: audit } = await db().query<{ with_values: number; entries: number }>(
      // The record of the erasure itself (the request completed, the privacy.erasure event)
      // carries counts and the outcome, nothing about the person.
      `select count(*) filter (where (old_values is not null or new_values is not null)
                                 and action <> 'privacy.erasure'
                                 and table_name is distinct from 'public.data_subject_requests')::int
                as with_values,
              count(*)::int as entries
         from public.audit_log where user_id = $1 or subject_user_id = $1`,
      [learner.id],
    );
    expect(audit[0]!.entries).toBeGreaterThan(5);
    expect(audit[0]!.with_values).toBe(0);
    const { rows: chain } = await db().query<{ ok: boolean }>(
      'select ok from public.verify_audit_chain()',
    );
    expect(chain).toEqual([{ ok: true }]);

    const { rows: followUp } = await db().query<{ table_name: string; rows: unknown[] }>(
      'select table_name, rows from privacy.export_personal_data($1)',
      [learner.id],
    );
    const left = followUp.filter(
      (t) => t.rows.length > 0 && !keptAfterErasure.includes(t.table_name),
    );
    expect(left).toEqual([]);
    const avatar = await server
      .service()
      .storage.from('avatars')
      .download(`${learner.id}/avatar.png`);
    expect(avatar.data).toBeNull();
    const signIn = await server.anon().auth.signInWithPassword({
      email: learner.email,
      password: 'irrelevant-the-account-is-gone',
    });
    expect(signIn.error).not.toBeNull();
  });
});
