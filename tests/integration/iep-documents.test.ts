/**
 * IEP documents and the HIPAA access log (issue 16, decision 0422) through supabase-js, on
 * PGlite and PostgreSQL: an organization admin stores a learner's document with a purpose;
 * the admin and the learner's instructor list and open it; the learner, an instructor who
 * does not teach them, a compliance officer, a platform admin, another organization's admin
 * and the storage API are refused; every access leaves one hipaa_audit_log row (who, roles,
 * action, patient, document, purpose, address, browser, session) that the organization's
 * compliance officer reads; a refused attempt leaves a `refused` row too (who, what, when, why
 * refused) that the refused caller cannot write themselves, whether they came through the iep
 * function or called the procedure through REST (anonymously too); the learner's own data export
 * leaves an `export` row per IEP document it delivers; nobody changes the log through the API,
 * the owner is refused by the trigger, and a change with the trigger off shows in
 * verify_hipaa_access_log.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { FunctionsHttpError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/server/logger';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { createPrivacyUser, type PrivacyUser } from './privacy-support';

const reason = 'Preparing exam accommodations for the spring term';
const pdf = new TextEncoder().encode('%PDF-1.4\n% IEP: extra time 25%, quiet room\n%%EOF\n');

interface LogRow {
  id: number;
  user_id: string;
  roles: string[];
  action: string;
  phi_accessed: string;
  document_id: string | null;
  patient_id: string;
  organization_id: string;
  purpose: string;
  ip_address: string | null;
  user_agent: string | null;
  session_id: string | null;
  outcome: 'granted' | 'refused';
  refusal: string | null;
}

/** The status and message of a refused function call. */
async function refusal(error: unknown): Promise<{ status: number; message: string }> {
  expect(error).toBeInstanceOf(FunctionsHttpError);
  const response = (error as FunctionsHttpError).context as Response;
  const body = (await response.json()) as { error: string };
  return { status: response.status, message: body.error };
}

describe.each(databaseKinds)('IEP documents and the HIPAA access log on %s', (kind) => {
  let server: TestServer;
  let admin: PrivacyUser;
  let instructor: PrivacyUser;
  let otherInstructor: PrivacyUser;
  let learner: PrivacyUser;
  let officer: PrivacyUser;
  let platformAdmin: PrivacyUser;
  let outsider: PrivacyUser;
  let org: string;
  let otherOrg: string;
  let documentId: string;
  const logLines: Record<string, unknown>[] = [];

  const logRows = async (): Promise<LogRow[]> =>
    (
      await server.deps.db.query<LogRow & Record<string, unknown>>(
        `select id::int, user_id, roles, action, phi_accessed, document_id, patient_id,
                organization_id, purpose, host(ip_address) as ip_address, user_agent, session_id,
                outcome, refusal
           from public.hipaa_audit_log order by id`,
      )
    ).rows;
  const grantedRows = async () => (await logRows()).filter((r) => r.outcome === 'granted');

  const upload = (who: PrivacyUser, fields: Record<string, string>, file: Blob | null = null) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    if (file) form.append('file', file, 'iep-2026.pdf');
    return who.client.functions.invoke<{ id: string }>('iep/documents', { body: form });
  };
  const open = (client: SupabaseClient, id: string, purpose = reason) =>
    client.functions.invoke(`iep/documents/${id}/open`, {
      body: { purpose },
      headers: { 'user-agent': 'iep-test-browser/1.0' },
    });
  const list = (client: SupabaseClient, learnerId = learner.id, purpose = reason) =>
    client.functions.invoke<{ id: string; title: string }[]>('iep/documents/list', {
      body: { learnerId, organizationId: org, purpose },
    });

  beforeAll(async () => {
    server = await startTestServer(
      kind,
      {},
      { log: createLogger('info', (line) => logLines.push(JSON.parse(line))) },
    );
    const made = async (label: string) => createPrivacyUser(server, `iep-${label}`);
    admin = await made('admin');
    instructor = await made('teacher');
    otherInstructor = await made('other-teacher');
    learner = await made('learner');
    officer = await made('officer');
    platformAdmin = await made('platform');
    outsider = await made('outsider');
    const service = server.service();
    org = (
      await service
        .from('organizations')
        .insert({ name: 'IEP U', slug: `iep-${kind}` })
        .select('id')
        .single()
    ).data!.id as string;
    otherOrg = (
      await service
        .from('organizations')
        .insert({ name: 'Elsewhere', slug: `iep-other-${kind}` })
        .select('id')
        .single()
    ).data!.id as string;
    const memberships = await service.from('memberships').insert([
      { user_id: admin.id, organization_id: org, role: 'org_admin' },
      { user_id: instructor.id, organization_id: org, role: 'instructor' },
      { user_id: otherInstructor.id, organization_id: org, role: 'instructor' },
      { user_id: learner.id, organization_id: org, role: 'learner' },
      { user_id: officer.id, organization_id: org, role: 'compliance_officer' },
      { user_id: outsider.id, organization_id: otherOrg, role: 'org_admin' },
    ]);
    expect(memberships.error).toBeNull();
    const courses = await service
      .from('courses')
      .insert([
        { organization_id: org, title: 'Biology 101' },
        { organization_id: org, title: 'History 101' },
      ])
      .select('id, title');
    expect(courses.error).toBeNull();
    const biology = courses.data!.find((c) => c.title === 'Biology 101')!.id as string;
    const history = courses.data!.find((c) => c.title === 'History 101')!.id as string;
    expect(
      (
        await service.from('course_instructors').insert([
          { course_id: biology, user_id: instructor.id },
          { course_id: history, user_id: otherInstructor.id },
        ])
      ).error,
    ).toBeNull();
    expect(
      (await service.from('enrollments').insert({ course_id: biology, user_id: learner.id })).error,
    ).toBeNull();
    await server.deps.db.query(
      "insert into public.user_roles (user_id, role) values ($1, 'admin')",
      [platformAdmin.id],
    );
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lets an org admin store a document with a purpose, and logs the upload', async () => {
    const { data, error } = await upload(
      admin,
      { learnerId: learner.id, organizationId: org, title: 'IEP 2026–27', purpose: reason },
      new Blob([pdf], { type: 'application/pdf' }),
    );
    expect(error).toBeNull();
    documentId = data!.id;
    const rows = await logRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      user_id: admin.id,
      roles: ['org_admin'],
      action: 'upload',
      phi_accessed: 'IEP document',
      document_id: documentId,
      patient_id: learner.id,
      organization_id: org,
      purpose: reason,
    });
    expect(rows[0]!.ip_address).toMatch(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
    expect(rows[0]!.session_id).toEqual(expect.any(String));
  });

  it('refuses storing by an instructor, the learner, an officer, another organization and without a purpose or file', async () => {
    const fields = { learnerId: learner.id, organizationId: org, title: 'Mine', purpose: reason };
    const file = new Blob([pdf], { type: 'application/pdf' });
    const refusedBy = [instructor, learner, officer, platformAdmin, outsider];
    for (const who of refusedBy) {
      const { error } = await upload(who, fields, file);
      expect(await refusal(error)).toMatchObject({ status: 403 });
    }
    const noPurpose = await upload(admin, { ...fields, purpose: 'x' }, file);
    expect(await refusal(noPurpose.error)).toMatchObject({
      status: 400,
      message: expect.stringMatching(/purpose/),
    });
    const noFile = await upload(admin, fields);
    expect(await refusal(noFile.error)).toMatchObject({ status: 400, message: /Attach/ });
    const wrongType = await upload(
      admin,
      fields,
      new Blob(['#!/bin/sh'], { type: 'application/x-sh' }),
    );
    expect(await refusal(wrongType.error)).toMatchObject({ status: 400 });
    // Nothing stored, no file left behind; each refused attempt logged as refused, the invalid
    // requests (no purpose, no file, a file type not taken) not at all.
    expect(await grantedRows()).toHaveLength(1);
    const refused = (await logRows()).filter((r) => r.outcome === 'refused');
    expect(refused.map((r) => [r.user_id, r.action, r.patient_id, r.organization_id])).toEqual(
      refusedBy.map((who) => [who.id, 'upload', learner.id, org]),
    );
    expect(refused[0]).toMatchObject({
      roles: ['instructor'],
      purpose: reason,
      refusal: "Only an admin of the learner's organization stores IEP documents.",
    });
    const { rows } = await server.deps.db.query<{ n: number }>(
      "select count(*)::int as n from storage.objects where bucket_id = 'iep-documents'",
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('refuses a document row without its stored file when store_iep_document is called directly', async () => {
    const before = await logRows();
    const documents = async () =>
      (
        await server.deps.db.query<{ id: string }>(
          'select id from public.iep_documents order by uploaded_at, id',
        )
      ).rows.map((r) => r.id);
    const existing = await documents();
    const direct = (id: string, objectPath: string) =>
      admin.client.rpc('store_iep_document', {
        id,
        learner: learner.id,
        organization: org,
        title: 'IEP without a file',
        file_name: 'ghost.pdf',
        content_type: 'application/pdf',
        size_bytes: 1000,
        object_path: objectPath,
        purpose: reason,
      });
    // The admin may store documents, but no file was uploaded for this one.
    const ghost = randomUUID();
    const noFile = await direct(ghost, `${org}/${learner.id}/${ghost}`);
    expect(noFile.data).toBeNull();
    expect(noFile.error).toMatchObject({
      code: '22023',
      message:
        'No file is stored for this IEP document: upload the document together with its file',
    });
    // Nor may a new row borrow the file of another document.
    const borrowed = await direct(randomUUID(), `${org}/${learner.id}/${documentId}`);
    expect(borrowed.error).toMatchObject({
      code: '22023',
      message: expect.stringMatching(/stored at <organization>\/<learner>\/<document>/),
    });
    expect(await documents()).toEqual(existing);
    expect(await logRows()).toEqual(before);
  });

  it('lets the admin and the learner’s instructor list and open it, each access logged with its reason', async () => {
    for (const who of [admin, instructor]) {
      const listed = await list(who.client);
      expect(listed.error).toBeNull();
      expect(listed.data).toEqual([
        expect.objectContaining({ id: documentId, title: 'IEP 2026–27' }),
      ]);
      const opened = await open(who.client, documentId);
      expect(opened.error).toBeNull();
      expect(new Uint8Array(await (opened.data as Blob).arrayBuffer())).toEqual(pdf);
    }
    const rows = (await grantedRows()).slice(1);
    expect(rows.map((r) => [r.user_id, r.action, r.roles, r.document_id])).toEqual([
      [admin.id, 'list', ['org_admin'], null],
      [admin.id, 'view', ['org_admin'], documentId],
      [instructor.id, 'list', ['instructor'], null],
      [instructor.id, 'view', ['instructor'], documentId],
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({ patient_id: learner.id, organization_id: org, purpose: reason });
    }
    expect(rows[1]!.user_agent).toBe('iep-test-browser/1.0');
  });

  it('refuses the learner, an instructor who does not teach them, the officer, a platform admin and another organization, and logs each refusal', async () => {
    const before = (await logRows()).length;
    const refusedBy = [learner, otherInstructor, officer, platformAdmin, outsider];
    for (const who of refusedBy) {
      expect(await refusal((await list(who.client)).error)).toMatchObject({ status: 403 });
      expect(await refusal((await open(who.client, documentId)).error)).toMatchObject({
        status: 403,
      });
    }
    // The read returned nothing, but each attempt is in the log: who, what, when, refused.
    const refused = (await logRows()).slice(before);
    expect(refused.map((r) => [r.user_id, r.action, r.document_id, r.outcome])).toEqual(
      refusedBy.flatMap((who) => [
        [who.id, 'list', null, 'refused'],
        [who.id, 'view', documentId, 'refused'],
      ]),
    );
    for (const row of refused) {
      expect(row).toMatchObject({
        roles: [],
        patient_id: learner.id,
        organization_id: org,
        purpose: reason,
        refusal: expect.stringMatching(/^You may not (list|view) this learner's IEP documents$/),
      });
      expect(row.ip_address).toMatch(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
      expect(row.session_id).toEqual(expect.any(String));
    }
    expect(refused[1]!.user_agent).toBe('iep-test-browser/1.0');
    const { rows: twins } = await server.deps.db.query<{ action: string; user_id: string }>(
      `select action, user_id from public.audit_log
        where id in (select audit_id from public.hipaa_audit_log where id >= $1) order by id`,
      [refused[0]!.id],
    );
    expect(twins.map((t) => t.action)).toEqual(
      refusedBy.flatMap(() => ['hipaa.list.refused', 'hipaa.view.refused']),
    );
    const afterRefusals = (await logRows()).length;

    // An invalid request is answered without a log row: it reached no one's records.
    expect(await refusal((await open(admin.client, documentId, '')).error)).toMatchObject({
      status: 400,
    });
    // The storage API and REST do not reach the files or the rows either.
    const download = await admin.client.storage
      .from('iep-documents')
      .download(`${org}/${learner.id}/${documentId}`);
    expect(download.data).toBeNull();
    const rows = await admin.client.from('iep_documents').select('id');
    expect(rows.error).not.toBeNull();
    const direct = await instructor.client.rpc('log_hipaa_access', {
      patient: learner.id,
      action: 'delete',
      purpose: reason,
      document: documentId,
    });
    expect(direct.error?.code).toBe('42501');
    // A refused caller cannot write a refusal (or anything) of their own making.
    const forged = await otherInstructor.client.schema('privacy').rpc('log_refused_iep_access', {
      uid: admin.id,
      session_id: null,
      action: 'view',
      patient: learner.id,
      document: null,
      organization: org,
      purpose: 'a forged refusal',
      refusal: 'forged',
      ip_address: null,
      user_agent: null,
    });
    expect(forged.error).not.toBeNull();
    const { rows: granted } = await server.deps.db.query<{ may: boolean }>(
      `select has_function_privilege('authenticated',
         'privacy.log_refused_iep_access(uuid, text, text, uuid, uuid, uuid, text, text, inet, text)',
         'execute') as may`,
    );
    expect(granted[0]!.may).toBe(false);
    // Neither the direct call of log_hipaa_access, which no API role may run (decision 0435),
    // nor the forged refusal leaves a row.
    expect((await logRows()).slice(afterRefusals)).toEqual([]);
  });

  it('refuses a direct call of log_hipaa_access, even by the people who may read the documents, and logs only real reads', async () => {
    const before = await logRows();
    const hipaaEntries = async () =>
      (
        await server.deps.db.query<{ n: number }>(
          "select count(*)::int as n from public.audit_log where action like 'hipaa.%'",
        )
      ).rows[0]!.n;
    const entriesBefore = await hipaaEntries();
    // An admin and an instructor who may open the document try to file reads that never
    // happened; the platform's own key and an anonymous caller are refused as well.
    const forgeries = [
      [admin.client, { action: 'view', document: documentId }],
      [admin.client, { action: 'list', organization: org }],
      [instructor.client, { action: 'view', document: documentId }],
      [server.service(), { action: 'view', document: documentId }],
      [server.anon(), { action: 'list', organization: org }],
    ] as const;
    for (const [client, call] of forgeries) {
      const forged = await client.rpc('log_hipaa_access', {
        patient: learner.id,
        purpose: reason,
        ...call,
      });
      expect(forged.data).toBeNull();
      expect(forged.error).toMatchObject({
        code: '42501',
        message: 'permission denied for function log_hipaa_access',
      });
    }
    expect(await logRows()).toEqual(before);
    expect(await hipaaEntries()).toBe(entriesBefore);
    const { rows: privileges } = await server.deps.db.query<{ role: string; may: boolean }>(
      `select r as role, has_function_privilege(r,
         'public.log_hipaa_access(uuid, text, text, uuid, uuid)', 'execute') as may
         from unnest(array['anon', 'authenticated', 'service_role']) r order by r`,
    );
    expect(privileges).toEqual([
      { role: 'anon', may: false },
      { role: 'authenticated', may: false },
      { role: 'service_role', may: false },
    ]);

    // The reads themselves still log, through the iep function and through REST.
    expect((await list(instructor.client)).error).toBeNull();
    expect((await open(admin.client, documentId)).error).toBeNull();
    const direct = await instructor.client.rpc('open_iep_document', {
      document: documentId,
      purpose: reason,
    });
    expect(direct.error).toBeNull();
    const after = (await logRows()).slice(before.length);
    expect(after.map((r) => [r.user_id, r.action, r.roles, r.document_id, r.outcome])).toEqual([
      [instructor.id, 'list', ['instructor'], null, 'granted'],
      [admin.id, 'view', ['org_admin'], documentId, 'granted'],
      [instructor.id, 'view', ['instructor'], documentId, 'granted'],
    ]);
    expect(after[0]!.session_id).toEqual(expect.any(String));
    expect(await hipaaEntries()).toBe(entriesBefore + 3);
  });

  it('logs a refused direct REST call of the IEP procedures, by a learner, another organization’s admin and an anonymous caller', async () => {
    const before = (await logRows()).length;
    const anon = server.anon();
    const byLearner = await learner.client.rpc('open_iep_document', {
      document: documentId,
      purpose: reason,
    });
    const byOutsider = await outsider.client.rpc('list_iep_documents', {
      learner: learner.id,
      organization: org,
      purpose: reason,
    });
    const byOutsiderDelete = await outsider.client.rpc('delete_iep_document', {
      document: documentId,
      purpose: 'Cleaning up old plans',
    });
    const byAnonymous = await anon.rpc('open_iep_document', {
      document: documentId,
      purpose: reason,
    });
    for (const refused of [byLearner, byOutsider, byOutsiderDelete, byAnonymous]) {
      expect(refused.data).toBeNull();
      expect(refused.error?.code).toBe('42501');
    }
    const rows = (await logRows()).slice(before);
    expect(rows.map((r) => [r.user_id, r.action, r.document_id, r.outcome])).toEqual([
      [learner.id, 'view', documentId, 'refused'],
      [outsider.id, 'list', null, 'refused'],
      [outsider.id, 'delete', documentId, 'refused'],
      [null, 'view', documentId, 'refused'],
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({ roles: [], patient_id: learner.id, organization_id: org });
      expect(row.refusal).toEqual(expect.any(String));
      expect(row.ip_address).toMatch(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
    }
    expect(rows[0]!.refusal).toBe("You may not view this learner's IEP documents");
    expect(rows[0]!.session_id).toEqual(expect.any(String));
    expect(rows[1]!.purpose).toBe(reason);
    expect(rows[3]!.refusal).toMatch(/permission denied for function open_iep_document/);
    expect(rows[3]!.session_id).toBeNull();
    // Each refusal is chained in the audit log like any other.
    const { rows: twins } = await server.deps.db.query<{ action: string }>(
      `select action from public.audit_log
        where id in (select audit_id from public.hipaa_audit_log where id >= $1) order by id`,
      [rows[0]!.id],
    );
    expect(twins.map((t) => t.action)).toEqual([
      'hipaa.view.refused',
      'hipaa.list.refused',
      'hipaa.delete.refused',
      'hipaa.view.refused',
    ]);
    const chain = await platformAdmin.client.rpc('verify_hipaa_access_log');
    expect(chain.data).toEqual([expect.objectContaining({ ok: true, first_broken_id: null })]);

    // A refused call that names no document reached nobody's records: nothing to file. Nor
    // can a caller file a row of their choosing: the row says what they did, as who they are.
    const nobody = await learner.client.rpc('open_iep_document', {
      document: '00000000-0000-4000-8000-000000000000',
      purpose: reason,
    });
    expect(nobody.error).not.toBeNull();
    const granted = await admin.client.rpc('open_iep_document', {
      document: documentId,
      purpose: reason,
    });
    expect(granted.error).toBeNull();
    const last = (await logRows()).slice(before + rows.length);
    expect(last.map((r) => [r.user_id, r.action, r.outcome])).toEqual([
      [admin.id, 'view', 'granted'],
    ]);
  });

  /** The learner files an access request and the admin has it exported; the export's id. */
  const exportForLearner = async () => {
    const filed = await learner.client.rpc('create_data_subject_request', { type: 'access' });
    expect(filed.error).toBeNull();
    const requestId = (filed.data as { id: string }).id;
    const queued = await fetch(`${server.url}/functions/v1/privacy/exports`, {
      method: 'POST',
      headers: {
        apikey: server.anonKey,
        authorization: `Bearer ${admin.token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ requestId }),
    });
    expect(queued.status).toBe(202);
    const { exportId } = (await queued.json()) as { exportId: string };
    await expect
      .poll(
        async () =>
          (
            await server.deps.db.query<{ status: string }>(
              'select status from privacy.data_exports where id = $1',
              [exportId],
            )
          ).rows[0]?.status,
        { timeout: 60_000, interval: 250 },
      )
      .toBe('ready');
    return { exportId, requestId };
  };

  it('logs each IEP document a learner’s own data export delivers to them', async () => {
    const before = (await logRows()).length;
    const { exportId, requestId } = await exportForLearner();
    const rows = (await logRows()).slice(before);
    expect(rows).toEqual([
      expect.objectContaining({
        user_id: learner.id,
        roles: ['patient'],
        action: 'export',
        phi_accessed: 'IEP document',
        document_id: documentId,
        patient_id: learner.id,
        organization_id: org,
        purpose: `The learner's own data export ${exportId}, answering data subject request ${requestId}`,
        outcome: 'granted',
      }),
    ]);
  });

  it('shows the log to the organization’s compliance officer and platform admins, and to nobody else', async () => {
    const seen = await officer.client
      .from('hipaa_audit_log')
      .select('id, action, patient_id, purpose');
    expect(seen.error).toBeNull();
    expect(seen.data).toHaveLength((await logRows()).length);
    const platform = await platformAdmin.client.from('hipaa_audit_log').select('id');
    expect(platform.data).toHaveLength((await logRows()).length);
    for (const who of [admin, instructor, learner, outsider]) {
      const { data } = await who.client.from('hipaa_audit_log').select('id');
      expect(data ?? []).toEqual([]);
    }
    const verified = await officer.client.rpc('verify_hipaa_access_log');
    expect(verified.error).toBeNull();
    expect(verified.data).toEqual([
      { ok: true, checked: (await logRows()).length, first_broken_id: null, problem: null },
    ]);
    const refused = await learner.client.rpc('verify_hipaa_access_log');
    expect(refused.error?.code).toBe('42501');
    // Each access is in the hash-chained audit log too.
    const { rows } = await server.deps.db.query<{ n: number }>(
      "select count(*)::int as n from public.audit_log where action like 'hipaa.%'",
    );
    expect(rows[0]!.n).toBe((await logRows()).length);
  });

  it('refuses tampering through the API and by the owner, and shows a change made with the trigger off', async () => {
    const [first] = await logRows();
    for (const who of [admin, officer, platformAdmin]) {
      const changed = await who.client
        .from('hipaa_audit_log')
        .update({ purpose: 'nothing to see' })
        .eq('id', first!.id)
        .select('id');
      expect(changed.error).not.toBeNull();
      const removed = await who.client
        .from('hipaa_audit_log')
        .delete()
        .eq('id', first!.id)
        .select('id');
      expect(removed.error).not.toBeNull();
      const added = await who.client.from('hipaa_audit_log').insert({
        action: 'view',
        roles: [],
        phi_accessed: 'IEP document',
        patient_id: learner.id,
        organization_id: org,
        purpose: 'a forged entry',
        audit_id: 1,
      });
      expect(added.error).not.toBeNull();
    }
    const db = server.deps.db;
    await expect(
      db.query("update public.hipaa_audit_log set purpose = 'nothing to see' where id = $1", [
        first!.id,
      ]),
    ).rejects.toThrow(/append-only/);
    await expect(
      db.query('delete from public.hipaa_audit_log where id = $1', [first!.id]),
    ).rejects.toThrow(/append-only/);

    // The two rows the check below changes and removes, as stored: put back exactly afterwards, so
    // the chain verifies again for every test that follows, whatever their order.
    const last = (await logRows()).at(-1)!;
    const saved = (
      await db.query<{ id: number; json: string }>(
        `select id::int, to_jsonb(h)::text as json from public.hipaa_audit_log h
          where id = any($1) order by id`,
        [[first!.id, last.id]],
      )
    ).rows;
    expect(saved).toHaveLength(2);
    await db.query(
      'alter table public.hipaa_audit_log disable trigger hipaa_audit_log_append_only',
    );
    try {
      await db.query("update public.hipaa_audit_log set purpose = 'nothing to see' where id = $1", [
        first!.id,
      ]);
      const broken = await officer.client.rpc('verify_hipaa_access_log');
      expect(broken.data).toEqual([
        expect.objectContaining({
          ok: false,
          first_broken_id: first!.id,
          problem: 'its fields were changed',
        }),
      ]);
      await db.query('update public.hipaa_audit_log set purpose = $2 where id = $1', [
        first!.id,
        first!.purpose,
      ]);
      await db.query('delete from public.hipaa_audit_log where id = $1', [last.id]);
      const removed = await officer.client.rpc('verify_hipaa_access_log');
      expect(removed.data).toEqual([
        expect.objectContaining({
          ok: false,
          first_broken_id: last.id,
          problem: expect.stringMatching(/removed/),
        }),
      ]);
    } finally {
      for (const row of saved) {
        await db.query('delete from public.hipaa_audit_log where id = $1', [row.id]);
        await db.query(
          `insert into public.hipaa_audit_log overriding system value
           select * from jsonb_populate_record(null::public.hipaa_audit_log, $1::jsonb)`,
          [row.json],
        );
      }
      await db.query(
        'alter table public.hipaa_audit_log enable trigger hipaa_audit_log_append_only',
      );
    }
    const restored = await officer.client.rpc('verify_hipaa_access_log');
    expect(restored.data).toEqual([
      expect.objectContaining({ ok: true, first_broken_id: null, problem: null }),
    ]);
  });

  it('lets only the org admin delete a document, logged, and the file goes with it', async () => {
    const refused = await instructor.client.functions.invoke(`iep/documents/${documentId}`, {
      method: 'DELETE',
      body: { purpose: reason },
    });
    expect(await refusal(refused.error)).toMatchObject({ status: 403 });
    const deleted = await admin.client.functions.invoke(`iep/documents/${documentId}`, {
      method: 'DELETE',
      body: { purpose: 'Superseded by the 2027 plan' },
    });
    expect(deleted.error).toBeNull();
    const rows = await logRows();
    expect(rows.at(-1)).toMatchObject({
      user_id: admin.id,
      action: 'delete',
      document_id: documentId,
      purpose: 'Superseded by the 2027 plan',
    });
    const { rows: objects } = await server.deps.db.query<{ n: number }>(
      "select count(*)::int as n from storage.objects where bucket_id = 'iep-documents'",
    );
    expect(objects[0]!.n).toBe(0);
    expect(await refusal((await open(admin.client, documentId)).error)).toMatchObject({
      status: 404,
    });
  });

  it('keeps a document deleted when its file could not be removed: never recorded again, and deleting it again removes the file', async () => {
    const { db, storage } = server.deps;
    const stored = await upload(
      admin,
      { learnerId: learner.id, organizationId: org, title: 'IEP 2028', purpose: reason },
      new Blob([pdf], { type: 'application/pdf' }),
    );
    expect(stored.error).toBeNull();
    const id = stored.data!.id;
    const path = `${org}/${learner.id}/${id}`;
    const files = async () =>
      (
        await db.query<{ n: number }>(
          "select count(*)::int as n from storage.objects where bucket_id = 'iep-documents' and name = $1",
          [path],
        )
      ).rows[0]!.n;
    const documentRows = async () =>
      (await db.query('select id from public.iep_documents where id = $1', [id])).rows;
    const deleteAs = (who: PrivacyUser, purpose: string) =>
      who.client.functions.invoke(`iep/documents/${id}`, { method: 'DELETE', body: { purpose } });
    const recordAgain = () =>
      admin.client.rpc('store_iep_document', {
        id,
        learner: learner.id,
        organization: org,
        title: 'IEP 2028',
        file_name: 'iep-2028.pdf',
        content_type: 'application/pdf',
        size_bytes: pdf.byteLength,
        object_path: path,
        purpose: reason,
      });
    const deletedSentence =
      /^This IEP document was deleted on \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC and is not recorded again: upload its file as a new document$/;

    // The row is deleted and logged, then the file's removal fails.
    const remove = storage.remove;
    storage.remove = () => Promise.reject(new Error('the blob store is unavailable'));
    let failed: Awaited<ReturnType<typeof deleteAs>>;
    try {
      failed = await deleteAs(admin, 'Superseded by the 2029 plan');
    } finally {
      storage.remove = remove;
    }
    expect(await refusal(failed.error)).toEqual({
      status: 500,
      message:
        "The document's file could not be removed, though the document no longer shows in lists: delete it again to remove the file.",
    });
    expect(logLines.findLast((l) => l.msg === 'iep document file not removed')).toMatchObject({
      document: id,
      path,
      error: 'the blob store is unavailable',
    });
    expect(await documentRows()).toEqual([]);
    expect(await files()).toBe(1);
    const listed = await list(admin.client);
    expect(listed.data!.map((d) => d.id)).not.toContain(id);

    // A direct call naming the deleted document, with its file still stored: refused, nothing kept.
    const before = await logRows();
    const again = await recordAgain();
    expect(again.error).toMatchObject({
      code: '22023',
      message: expect.stringMatching(deletedSentence),
    });
    expect(await documentRows()).toEqual([]);
    expect(await logRows()).toEqual(before);

    // Meanwhile the file is the learner's: listed for their erasure, delivered and logged in their export.
    const { rows: theirs } = await db.query<{ name: string }>(
      "select name from privacy.storage_objects_of($1) where bucket_id = 'iep-documents'",
      [learner.id],
    );
    expect(theirs.map((r) => r.name)).toContain(path);
    const beforeExport = (await logRows()).length;
    const { exportId } = await exportForLearner();
    expect((await logRows()).slice(beforeExport)).toContainEqual(
      expect.objectContaining({
        action: 'export',
        document_id: id,
        patient_id: learner.id,
        organization_id: org,
        purpose: expect.stringContaining(exportId),
      }),
    );

    // Deleting it again: the instructor is refused (and filed under the learner); the admin's
    // retry is logged and removes the file; after that there is nothing left to delete.
    expect(await refusal((await deleteAs(instructor, reason)).error)).toMatchObject({
      status: 403,
    });
    expect((await logRows()).at(-1)).toMatchObject({
      user_id: instructor.id,
      action: 'delete',
      outcome: 'refused',
      document_id: id,
      patient_id: learner.id,
    });
    expect(await files()).toBe(1);
    const retried = await deleteAs(admin, 'Removing the file left by the failed deletion');
    expect(retried.error).toBeNull();
    expect(await files()).toBe(0);
    expect((await logRows()).at(-1)).toMatchObject({
      user_id: admin.id,
      roles: ['org_admin'],
      action: 'delete',
      outcome: 'granted',
      phi_accessed: 'IEP document',
      document_id: id,
      patient_id: learner.id,
      organization_id: org,
      purpose: 'Removing the file left by the failed deletion',
    });
    expect(await refusal((await deleteAs(admin, reason)).error)).toEqual({
      status: 404,
      message: 'No such IEP document',
    });
    // Still never recorded again, now that the file is gone too.
    const later = await recordAgain();
    expect(later.error).toMatchObject({
      code: '22023',
      message: expect.stringMatching(deletedSentence),
    });
    expect(await documentRows()).toEqual([]);
  });
});
