/**
 * The compliance console's reads (decision 0420) through supabase-js on PGlite and PostgreSQL:
 * a compliance officer counts access by day, lists data requests' status and consent records
 * for their organization only, with identifiers and never what a person wrote; a platform
 * admin reviews every organization or one; anyone else, a bad period or another organization
 * is refused with a sentence. The audit log itself is filtered the console's way, and searched
 * by a whole record id or its start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditFilterError,
  emptyAuditFilters,
  recordIdSearch,
} from '../../src/web/features/compliance/api/audit-log';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { createPrivacyUser, type PrivacyUser } from './privacy-support';

const policyVersion = '2026-11-23';

type AccessPattern = {
  day: string;
  user_id: string | null;
  table_name: string;
  action: string;
  entries: number;
};

const sorted = (rows: AccessPattern[]) =>
  rows
    .map((r) => ({ ...r, entries: Number(r.entries) }))
    .sort((a, b) =>
      [a.day, a.user_id ?? '', a.table_name, a.action]
        .join('|')
        .localeCompare([b.day, b.user_id ?? '', b.table_name, b.action].join('|')),
    );

const daysAgo = (days: number) =>
  new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

describe.each(databaseKinds)('compliance console on %s', (kind) => {
  let server: TestServer;
  let officer: PrivacyUser;
  let learner: PrivacyUser;
  let outsider: PrivacyUser;
  let platformAdmin: PrivacyUser;
  let stranger: PrivacyUser;
  let orgA: string;
  let orgB: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    officer = await createPrivacyUser(server, 'officer');
    learner = await createPrivacyUser(server, 'learner');
    outsider = await createPrivacyUser(server, 'outsider');
    platformAdmin = await createPrivacyUser(server, 'platform-admin');
    stranger = await createPrivacyUser(server, 'stranger');
    const service = server.service();
    const orgs = await service
      .from('organizations')
      .insert([
        { name: 'Alpha', slug: `alpha-console-${kind}` },
        { name: 'Beta', slug: `beta-console-${kind}` },
      ])
      .select('id, name')
      .order('name');
    expect(orgs.error).toBeNull();
    [orgA, orgB] = orgs.data!.map((o) => o.id as string) as [string, string];
    const memberships = await service.from('memberships').insert([
      { user_id: officer.id, organization_id: orgA, role: 'compliance_officer' },
      { user_id: learner.id, organization_id: orgA, role: 'learner' },
      { user_id: outsider.id, organization_id: orgB, role: 'learner' },
    ]);
    expect(memberships.error).toBeNull();
    await server.deps.db.query(
      "insert into public.user_roles (user_id, role) values ($1, 'admin')",
      [platformAdmin.id],
    );
    for (const person of [learner, outsider]) {
      const filed = await person.client.rpc('create_data_subject_request', {
        type: 'access',
        details: `private words of ${person.email}`,
      });
      expect(filed.error).toBeNull();
      const consent = await person.client.rpc('set_user_consent', {
        choices: { analytics: false, marketing: false, functional: person === learner },
        policy_version: policyVersion,
        source: 'banner',
      });
      expect(consent.error).toBeNull();
      for (let i = 0; i < 3; i++) {
        const event = await person.client.rpc('record_audit_event', {
          action: 'console_test.read',
          purpose: 'testing the console',
          legal_basis: 'contract',
          table_name: 'public.notes',
          record_id: `note-${person.id.slice(0, 8)}-${i}`,
        });
        expect(event.error).toBeNull();
      }
    }
  });
  afterAll(() => server?.stop());

  it("counts the officer's organization's access by day, person, kind and action", async () => {
    const { data, error } = await officer.client.rpc('audit_access_patterns', { since_days: 7 });
    expect(error).toBeNull();
    const reads = (data as { user_id: string; action: string; entries: number }[]).filter(
      (r) => r.action === 'console_test.read',
    );
    expect(reads).toEqual([
      {
        day: new Date().toISOString().slice(0, 10),
        user_id: learner.id,
        table_name: 'public.notes',
        action: 'console_test.read',
        entries: 3,
      },
    ]);
  });

  it('counts access from daily counts equal to the log itself, per organization (decision 0431)', async () => {
    const db = server.deps.db;
    const officerB = await createPrivacyUser(server, 'officer-b');
    await db.query(
      `insert into public.memberships (user_id, organization_id, role)
       values ($1, $2, 'compliance_officer')`,
      [officerB.id, orgB],
    );
    // Older entries, one with no organization and no person, written by the owner straight into
    // the log (the counts follow every insert, whatever its path): 2 and 40 days ago.
    await db.query(
      `insert into public.audit_log ("timestamp", user_id, action, table_name, record_id,
              purpose, legal_basis, organization_id, subject_user_id, content_hash, prev_hash, row_hash)
       select now() - make_interval(days => d), u, 'console_test.old', t, 'old-' || d,
              'testing the console', 'contract', o, u, '\\x00', '\\x00', '\\x00'
         from (values (2, $1::uuid, 'public.notes', $2::uuid), (2, $1::uuid, 'public.notes', $2::uuid),
                      (40, $1::uuid, null, $2::uuid), (2, $3::uuid, 'public.notes', $4::uuid),
                      (2, null, null, null)) v(d, u, t, o)`,
      [learner.id, orgA, outsider.id, orgB],
    );
    // The log's own counts over the same whole UTC days, for the given organizations (all: null).
    const raw = async (days: number, orgs: string[] | null) => {
      const { rows } = await db.query<AccessPattern>(
        `select to_char(("timestamp" at time zone 'UTC')::date, 'YYYY-MM-DD') as day, user_id,
                coalesce(table_name, '') as table_name, action, count(*)::int as entries
           from public.audit_log
          where "timestamp" >= (((now() at time zone 'UTC')::date - $1::int)::timestamp at time zone 'UTC')
            and ($2::uuid[] is null or organization_id = any ($2))
          group by 1, 2, 3, 4`,
        [days, orgs],
      );
      return sorted(rows);
    };
    const counted = async (who: PrivacyUser, days: number, organization?: string) => {
      const { data, error } = await who.client.rpc('audit_access_patterns', {
        since_days: days,
        ...(organization ? { organization } : {}),
      });
      expect(error).toBeNull();
      return sorted(data as AccessPattern[]);
    };
    for (const days of [1, 7, 60]) {
      expect(await counted(officer, days)).toEqual(await raw(days, [orgA]));
      expect(await counted(officerB, days)).toEqual(await raw(days, [orgB]));
      expect(await counted(platformAdmin, days)).toEqual(await raw(days, null));
      expect(await counted(platformAdmin, days, orgB)).toEqual(await raw(days, [orgB]));
    }
    const twoDays = (await counted(officer, 7)).filter((r) => r.action === 'console_test.old');
    expect(twoDays).toEqual([
      {
        day: daysAgo(2),
        user_id: learner.id,
        table_name: 'public.notes',
        action: 'console_test.old',
        entries: 2,
      },
    ]);
    expect(await counted(officer, 60)).toContainEqual({
      day: daysAgo(40),
      user_id: learner.id,
      table_name: '',
      action: 'console_test.old',
      entries: 1,
    });
    // Another organization's officer sees none of A's counts, through the function or the table.
    const mine = await counted(officerB, 60);
    expect(mine.filter((r) => r.user_id === learner.id)).toEqual([]);
    expect(mine.some((r) => r.user_id === outsider.id)).toBe(true);
    const asB = await db.queryAsRole<{ n: number }>(
      { role: 'authenticated', sub: officerB.id },
      'select count(*)::int as n from audit.access_daily where organization_id = $1',
      [orgA],
    );
    expect(asB.rows).toEqual([{ n: 0 }]);
    const asLearner = await db.queryAsRole<{ n: number }>(
      { role: 'authenticated', sub: learner.id },
      'select count(*)::int as n from audit.access_daily',
    );
    expect(asLearner.rows).toEqual([{ n: 0 }]);
    // Retention's deletion takes entries out of their day's counts.
    await db.transaction(async (tx) => {
      await tx.exec("set local lyceum.audit_retention = 'on'");
      await tx.query("delete from public.audit_log where record_id = 'old-40'");
    });
    expect(await counted(officer, 60)).toEqual(await raw(60, [orgA]));
    expect((await counted(officer, 60)).filter((r) => r.day === daysAgo(40))).toEqual([]);
  });

  it("bounds a period's page by the ids of its days, finding the same entries (decision 0431)", async () => {
    // The day of the newest entry, not the clock's: a run crossing midnight has none today yet.
    const { rows: newest } = await server.deps.db.query<{ day: string }>(
      `select to_char(max("timestamp") at time zone 'UTC', 'YYYY-MM-DD') as day
         from public.audit_log where organization_id = $1`,
      [orgA],
    );
    const day = newest[0]!.day;
    const page = async (ids?: { first_id: number; last_id: number }) => {
      let query = officer.client
        .from('audit_log')
        .select('id')
        .eq('organization_id', orgA)
        .gte('timestamp', `${day}T00:00:00Z`);
      if (ids) query = query.gte('id', ids.first_id).lte('id', ids.last_id);
      const { data, error } = await query.order('id', { ascending: false }).limit(51);
      expect(error).toBeNull();
      return data!.map((r) => r.id as number);
    };
    const { data, error } = await officer.client.rpc('audit_log_ids_between', {
      since: day,
      until: day,
    });
    expect(error).toBeNull();
    const [ids] = data as { first_id: number; last_id: number }[];
    const { rows } = await server.deps.db.query<{ first: number; last: number }>(
      `select min(id)::int as first, max(id)::int as last from public.audit_log
        where ("timestamp" at time zone 'UTC')::date = $1::date`,
      [day],
    );
    expect(ids).toEqual({ first_id: rows[0]!.first, last_id: rows[0]!.last });
    const unbounded = await page();
    expect(unbounded.length).toBeGreaterThan(0);
    expect(await page(ids)).toEqual(unbounded);
    // A period with no entries has no ids; anyone but a reviewer is refused.
    const empty = await officer.client.rpc('audit_log_ids_between', {
      since: '2001-01-01',
      until: '2001-01-02',
    });
    expect(empty.data).toEqual([{ first_id: null, last_id: null }]);
    const refused = await learner.client.rpc('audit_log_ids_between', {
      since: day,
      until: day,
    });
    expect(refused.error).toMatchObject({ code: '42501' });
  });

  it('refuses a bad period, another organization, and anyone who is not an officer', async () => {
    const bad = await officer.client.rpc('audit_access_patterns', { since_days: 0 });
    expect(bad.error).toMatchObject({
      code: '22023',
      message: 'since_days must be between 1 and 366',
    });
    const other = await officer.client.rpc('compliance_request_overview', { organization: orgB });
    expect(other.error).toMatchObject({
      code: '42501',
      message: 'you are not a compliance officer of that organization',
    });
    for (const fn of [
      'audit_access_patterns',
      'compliance_request_overview',
      'compliance_consent_overview',
      'compliance_consent_changes',
    ]) {
      for (const person of [learner, stranger]) {
        const refused = await person.client.rpc(fn, {});
        expect(refused.error, fn).toMatchObject({ code: '42501' });
        expect(refused.error!.message).toMatch(/only compliance officers and platform admins/);
      }
    }
    const anon = await server.anon().rpc('compliance_request_overview', {});
    expect(anon.error).not.toBeNull();
  });

  it("lists the organization's data requests with status and dates, never what was written", async () => {
    const { data, error } = await officer.client.rpc('compliance_request_overview', {});
    expect(error).toBeNull();
    expect(data).toEqual([
      {
        id: expect.any(String),
        user_id: learner.id,
        request_type: 'access',
        status: 'pending',
        created_at: expect.any(String),
        due_at: expect.any(String),
        completed_at: null,
      },
    ]);
    expect(JSON.stringify(data)).not.toContain('private words');
  });

  it("counts the organization's consent choices and lists its changes", async () => {
    const counts = await officer.client.rpc('compliance_consent_overview', {});
    expect(counts.error).toBeNull();
    const byCategory = Object.fromEntries(
      (counts.data as { category: string; granted: number; refused: number }[]).map((c) => [
        c.category,
        [Number(c.granted), Number(c.refused)],
      ]),
    );
    expect(byCategory).toEqual({
      analytics: [0, 1],
      essential: [1, 0],
      functional: [1, 0],
      marketing: [0, 1],
    });
    const changes = await officer.client.rpc('compliance_consent_changes', {});
    expect(changes.error).toBeNull();
    const people = new Set((changes.data as { user_id: string }[]).map((c) => c.user_id));
    expect([...people]).toEqual([learner.id]);
  });

  it('gives a platform admin every organization, or the one named', async () => {
    const all = await platformAdmin.client.rpc('compliance_request_overview', {});
    expect(all.error).toBeNull();
    const everyone = (all.data as { user_id: string }[]).map((r) => r.user_id);
    expect(everyone).toEqual(expect.arrayContaining([learner.id, outsider.id]));
    const one = await platformAdmin.client.rpc('compliance_request_overview', {
      organization: orgB,
    });
    expect((one.data as { user_id: string }[]).map((r) => r.user_id)).toEqual([outsider.id]);
    const patterns = await platformAdmin.client.rpc('audit_access_patterns', {
      since_days: 1,
      organization: orgB,
    });
    expect(
      (patterns.data as { user_id: string; action: string }[])
        .filter((r) => r.action === 'console_test.read')
        .map((r) => r.user_id),
    ).toEqual([outsider.id]);
  });

  it("filters the audit log the console's way, within the officer's organization", async () => {
    const { data, error } = await officer.client
      .from('audit_log')
      .select('id, user_id, action, record_id')
      .eq('organization_id', orgA)
      .eq('action', 'console_test.read')
      .or(`user_id.eq.${learner.id},subject_user_id.eq.${learner.id}`)
      .order('id', { ascending: false })
      .limit(51);
    expect(error).toBeNull();
    expect(data!.map((r) => r.record_id)).toEqual([
      `note-${learner.id.slice(0, 8)}-2`,
      `note-${learner.id.slice(0, 8)}-1`,
      `note-${learner.id.slice(0, 8)}-0`,
    ]);
    const outsiders = await officer.client
      .from('audit_log')
      .select('id')
      .eq('user_id', outsider.id);
    expect(outsiders.data).toEqual([]);
    const values = await officer.client.from('audit_log').select('new_values').limit(1);
    expect(values.error?.code).toBe('42501');
  });

  it('searches by a whole record id or its start, as the console sends it (decision 0427)', async () => {
    const short = learner.id.slice(0, 8);
    for (const recordId of [learner.id, `note_${short}_9`]) {
      const event = await learner.client.rpc('record_audit_event', {
        action: 'console_test.search',
        purpose: 'testing the console',
        legal_basis: 'contract',
        table_name: 'public.notes',
        record_id: recordId,
      });
      expect(event.error).toBeNull();
    }
    const search = async (text: string, action?: string) => {
      const prefix = recordIdSearch(text)!;
      let query = officer.client
        .rpc('audit_log_by_record_id', { prefix })
        .select('record_id')
        .eq('organization_id', orgA);
      if (action) query = query.eq('action', action);
      const { data, error } = await query.order('id', { ascending: false }).limit(51);
      expect(error).toBeNull();
      return (data as { record_id: string }[]).map((r) => r.record_id);
    };
    expect(await search(`note-${short}`)).toEqual([
      `note-${short}-2`,
      `note-${short}-1`,
      `note-${short}-0`,
    ]);
    // A pasted UUID in capitals is the whole id; its first characters find it too.
    expect(await search(learner.id.toUpperCase(), 'console_test.search')).toEqual([learner.id]);
    expect(await search(learner.id.slice(0, 6).toUpperCase(), 'console_test.search')).toEqual([
      learner.id,
    ]);
    // `_` and `%` are the text itself, not wildcards: `note_…` does not find `note-…`.
    expect(await search(`note_${short}`)).toEqual([`note_${short}_9`]);
    expect(await search('note%')).toEqual([]);
    // Part of an id that is not its start finds nothing; the outsider's ids stay unseen, and
    // the function gives no column the officer may not read.
    expect(await search(short)).not.toContain(`note-${short}-0`);
    expect(await search(`note-${outsider.id.slice(0, 8)}`)).toEqual([]);
    const byAdmin = await platformAdmin.client
      .rpc('audit_log_by_record_id', { prefix: `note-${outsider.id.slice(0, 8)}` })
      .select('record_id');
    expect(byAdmin.data).toHaveLength(3);
    const byLearner = await learner.client
      .rpc('audit_log_by_record_id', { prefix: 'note' })
      .select('record_id');
    expect(byLearner.data).toEqual([]);
    const values = await officer.client
      .rpc('audit_log_by_record_id', { prefix: 'note' })
      .select('new_values');
    expect(values.error).not.toBeNull();
    const tooShort = await officer.client
      .rpc('audit_log_by_record_id', { prefix: 'not' })
      .select('record_id');
    expect(tooShort.error).toMatchObject({
      code: '22023',
      message: 'Search a record id by the whole id or its first 4 characters or more.',
    });
    expect(auditFilterError({ ...emptyAuditFilters, search: 'a3f' })).toBe(
      'Search a record id by the whole id or its first 4 characters or more.',
    );
    expect(auditFilterError({ ...emptyAuditFilters, search: 'a3f5' })).toBeNull();
  });
});
