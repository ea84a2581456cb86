/**
 * The console's audit-log export (decision 0428) through /functions/v1/audit-log-export on
 * PGlite and PostgreSQL: a compliance officer's export of thousands of entries, in batches, is
 * complete (every entry of their organization up to the export, newest first, once each) and
 * well-formed as CSV and as JSON; filters and the record-id search apply; the export is itself
 * recorded; others and bad parameters are refused with a sentence; and a client that goes away
 * mid-export stops it: the batch being read is dropped and no further batch is read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_EXPORT_BATCH, AUDIT_EXPORT_COLUMNS } from '../../src/server/compliance/audit-export';
import type { Database } from '../../src/server/db/types';
import { createLogger } from '../../src/server/logger';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { createPrivacyUser, type PrivacyUser } from './privacy-support';

const ENTRIES = 2 * AUDIT_EXPORT_BATCH + 500;
const awkward = '=1+2, "quoted"\nsecond line';

/** RFC 4180 rows: quoted cells may hold commas, quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  expect(quoted, 'the CSV ends inside a quoted cell').toBe(false);
  expect(cell + row.join(''), 'the CSV ends without a final line break').toBe('');
  return rows;
}

describe.each(databaseKinds)('audit log export on %s', (kind) => {
  let server: TestServer;
  let db: Database;
  let officer: PrivacyUser;
  let learner: PrivacyUser;
  let platformAdmin: PrivacyUser;
  let orgA: string;
  let orgB: string;
  const logLines: Record<string, unknown>[] = [];

  const exportAs = (who: PrivacyUser, params: Record<string, string>, signal?: AbortSignal) =>
    fetch(`${server.url}/functions/v1/audit-log-export?${new URLSearchParams(params)}`, {
      headers: {
        apikey: server.anonKey,
        authorization: `Bearer ${who.token}`,
        // Unless the test stops mid-way, the body comes gzipped, as it does to a browser.
        ...(signal ? { 'accept-encoding': 'identity' } : {}),
      },
      signal,
    });

  const lastExportLog = () => logLines.findLast((line) => line.msg === 'audit log export ended');

  /** The ids of organization A's entries up to `newest`, newest first, as the database has them. */
  const idsOfA = async (newest: number) =>
    (
      await db.query<{ id: number }>(
        `select id::int from public.audit_log where organization_id = $1 and id <= $2
          order by id desc`,
        [orgA, newest],
      )
    ).rows.map((r) => r.id);

  beforeAll(async () => {
    server = await startTestServer(
      kind,
      {},
      { log: createLogger('info', (line) => logLines.push(JSON.parse(line))) },
    );
    db = server.deps.db;
    officer = await createPrivacyUser(server, 'export-officer');
    learner = await createPrivacyUser(server, 'export-learner');
    platformAdmin = await createPrivacyUser(server, 'export-platform');
    const orgs = await server
      .service()
      .from('organizations')
      .insert([
        { name: 'Alpha', slug: `alpha-export-${kind}` },
        { name: 'Beta', slug: `beta-export-${kind}` },
      ])
      .select('id, name')
      .order('name');
    [orgA, orgB] = orgs.data!.map((o) => o.id as string) as [string, string];
    const memberships = await server
      .service()
      .from('memberships')
      .insert([
        { user_id: officer.id, organization_id: orgA, role: 'compliance_officer' },
        { user_id: learner.id, organization_id: orgA, role: 'learner' },
      ]);
    expect(memberships.error).toBeNull();
    await db.query("insert into public.user_roles (user_id, role) values ($1, 'admin')", [
      platformAdmin.id,
    ]);
    // Many entries in each organization, through the log's own append (hash chain and all).
    for (const [org, label] of [
      [orgA, 'a'],
      [orgB, 'b'],
    ] as const) {
      await db.query(
        `select audit.append($1::uuid, 'export_test.read', 'public.notes',
                  'rec-${label}-' || lpad(g::text, 5, '0'), null, null, '{body}',
                  'testing the export', 'contract', '192.0.2.7', null, null, $1::uuid, $2::uuid)
           from generate_series(1, $3::int) g`,
        [learner.id, org, ENTRIES],
      );
    }
    await db.query(
      `select audit.append($1::uuid, 'export_test.awkward', 'public.notes', $3, null, null, '{}',
                'testing the export', 'contract', null, null, null, $1::uuid, $2::uuid)`,
      [learner.id, orgA, awkward],
    );
  });
  afterAll(() => server?.stop());

  it('writes every entry of the officer’s organization as well-formed CSV, newest first, and records the export', async () => {
    const response = await exportAs(officer, { format: 'csv' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    // A byte-order mark first, so Excel reads UTF-8 (the decoder drops it).
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...rows] = parseCsv(new TextDecoder().decode(bytes));
    expect(header).toEqual([...AUDIT_EXPORT_COLUMNS]);
    for (const row of rows) expect(row).toHaveLength(AUDIT_EXPORT_COLUMNS.length);
    const ids = rows.map((r) => Number(r[0]));
    expect(ids.length).toBeGreaterThan(ENTRIES);
    expect(ids).toEqual(await idsOfA(ids[0]!));
    expect(rows.every((r) => r[12] === orgA)).toBe(true);
    const awkwardRow = rows.find((r) => r[3] === 'export_test.awkward')!;
    // The formula guard of lib/csv: a spreadsheet shows the text, never runs it.
    expect(awkwardRow[5]).toBe(`'${awkward}`);
    const plain = rows.find((r) => r[5] === 'rec-a-00001')!;
    expect([plain[2], plain[6], plain[9], plain[11]]).toEqual([
      learner.id,
      'body',
      '192.0.2.7',
      learner.id,
    ]);
    expect(plain[1]).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    const { rows: recorded } = await db.query<{ user_id: string; details: string }>(
      `select user_id, new_values::text as details from public.audit_log
        where action = 'audit_log.export' order by id desc limit 1`,
    );
    expect(recorded[0]).toMatchObject({ user_id: officer.id });
    expect(JSON.parse(recorded[0]!.details)).toMatchObject({ format: 'csv' });
    expect(lastExportLog()).toMatchObject({
      user: officer.id,
      entries: rows.length,
      complete: true,
    });
  });

  it('writes the same entries as a JSON array, and applies the filters and the record id search', async () => {
    const response = await exportAs(officer, { format: 'json' });
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const entries = JSON.parse(await response.text()) as Record<string, unknown>[];
    const ids = entries.map((e) => e.id as number);
    expect(ids).toEqual(await idsOfA(ids[0]!));
    expect(Object.keys(entries[0]!)).toEqual([...AUDIT_EXPORT_COLUMNS]);
    expect(entries.find((e) => e.action === 'export_test.awkward')!.record_id).toBe(awkward);

    const filtered = JSON.parse(
      await (
        await exportAs(officer, {
          format: 'json',
          action: 'export_test.read',
          search: 'rec-a-0002',
        })
      ).text(),
    ) as { record_id: string }[];
    expect(filtered.map((e) => e.record_id)).toEqual(
      Array.from({ length: 10 }, (_, i) => `rec-a-000${29 - i}`),
    );
    const none = await exportAs(officer, { format: 'json', search: 'rec-b-0001' });
    expect(await none.text()).toBe('[]\n');
    // A platform admin reads every organization.
    const all = JSON.parse(
      await (await exportAs(platformAdmin, { format: 'json', action: 'export_test.read' })).text(),
    ) as unknown[];
    expect(all).toHaveLength(2 * ENTRIES);
  });

  it('refuses anyone who is not an officer, and bad parameters, with a sentence', async () => {
    const byLearner = await exportAs(learner, { format: 'csv' });
    expect(byLearner.status).toBe(403);
    expect(await byLearner.json()).toMatchObject({
      error: 'Only compliance officers and platform admins export the audit log.',
    });
    const anonymous = await fetch(`${server.url}/functions/v1/audit-log-export?format=csv`, {
      headers: { apikey: server.anonKey },
    });
    expect(anonymous.status).toBe(401);
    for (const [params, message] of [
      [{ format: 'xml' }, /format=csv or format=json/],
      [{ format: 'csv', search: 'rec' }, /first 4 characters/],
      [{ format: 'csv', person: 'someone' }, /UUID/],
      [{ format: 'csv', from: '2026-11-30', to: '2026-11-01' }, /"from" date is after/],
    ] as const) {
      const refused = await exportAs(officer, params);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: string }).error).toMatch(message);
    }
  });

  it('exports exactly the entries of a period far back, bounded by the ids of its days (decision 0431)', async () => {
    const daysAgo = (days: number) =>
      new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
    // Entries on the first instant, midday and last instant of days 300 to 295 before today
    // (none on day 297), in both organizations, written in time order as the log is; plus an
    // entry of A written late about day 298 (its id after day 295's), as a transaction that
    // committed late leaves one.
    const stamps: [string, string][] = [];
    for (const days of [300, 299, 298, 296, 295])
      for (const time of ['00:00:00.000', '12:00:00.000', '23:59:59.999'])
        for (const org of [orgA, orgB]) stamps.push([`${daysAgo(days)}T${time}Z`, org]);
    stamps.push([`${daysAgo(298)}T06:00:00.000Z`, orgA]);
    await db.query(
      `insert into public.audit_log ("timestamp", user_id, action, table_name, record_id,
              purpose, legal_basis, organization_id, subject_user_id, content_hash, prev_hash, row_hash)
       select s.at::timestamptz, $1::uuid, 'export_test.old', 'public.notes', 'old-' || s.n,
              'testing the export', 'contract', s.org::uuid, $1::uuid, '\\x00', '\\x00', '\\x00'
         from unnest($2::text[], $3::text[]) with ordinality as s(at, org, n)
        order by s.n`,
      [learner.id, stamps.map((s) => s[0]), stamps.map((s) => s[1])],
    );
    /** A's entries of the UTC days `from` to `to` (either open), newest first: the log's own filter. */
    const logged = async (from: string | null, to: string | null) =>
      (
        await db.query<{ id: number }>(
          `select id::int from public.audit_log
            where organization_id = $1
              and ($2::date is null or "timestamp" >= $2::date::timestamp at time zone 'UTC')
              and ($3::date is null or "timestamp" < ($3::date + 1)::timestamp at time zone 'UTC')
            order by id desc`,
          [orgA, from, to],
        )
      ).rows.map((r) => r.id);
    const exported = async (params: Record<string, string>) => {
      const response = await exportAs(officer, { format: 'json', ...params });
      expect(response.status).toBe(200);
      return (JSON.parse(await response.text()) as { id: number }[]).map((e) => e.id);
    };
    for (const [from, to] of [
      [300, 295], // the first and last days with entries
      [299, 296], // inside: the day with none (297) in the middle
      [298, 298], // one day, with its late entry
      [299, 297], // ending on the day with none
      [297, 296], // starting on it
      [301, 300], // starting before the first entry
    ] as const) {
      const period = { from: daysAgo(from), to: daysAgo(to) };
      const expected = await logged(period.from, period.to);
      expect(expected.length, `${from}–${to} days ago has entries`).toBeGreaterThan(0);
      expect(await exported(period), `${from}–${to} days ago`).toEqual(expected);
    }
    // Open at one end: from a day far back to today (thousands of entries), and up to one.
    expect(await exported({ from: daysAgo(296) })).toEqual(await logged(daysAgo(296), null));
    expect(await exported({ to: daysAgo(298) })).toEqual(await logged(null, daysAgo(298)));
    // With another filter, and as CSV.
    const csv = await (
      await exportAs(officer, {
        format: 'csv',
        from: daysAgo(299),
        to: daysAgo(296),
        action: 'export_test.old',
      })
    ).text();
    const csvIds = csv
      .split('\r\n')
      .slice(1, -1)
      .map((line) => Number(line.split(',')[0]));
    expect(csvIds).toEqual(await logged(daysAgo(299), daysAgo(296)));
    // A day with no entry, and a period with none at all: an empty export, and no batch read.
    for (const period of [
      { from: daysAgo(297), to: daysAgo(297) },
      { from: '2001-01-01', to: '2001-01-31' },
    ]) {
      expect(await logged(period.from, period.to)).toEqual([]);
      expect(await exported(period)).toEqual([]);
      expect(lastExportLog()).toMatchObject({ entries: 0, batches: 0, complete: true });
    }
  });

  it('stops when the client goes away: the batch being read is dropped and no other is read', async () => {
    const batches: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let secondDone!: Promise<unknown>;
    const original = db.queryAsRole.bind(db);
    db.queryAsRole = ((claims, sql, params, options) => {
      if (!sql.includes(`limit ${AUDIT_EXPORT_BATCH}`))
        return original(claims, sql, params, options);
      batches.push(sql);
      if (batches.length !== 2) return original(claims, sql, params, options);
      // The second batch waits until the client has gone.
      const read = held.then(() => original(claims, sql, params, options));
      secondDone = read.catch(() => undefined);
      return read;
    }) as Database['queryAsRole'];
    try {
      const client = new AbortController();
      const response = await exportAs(officer, { format: 'csv' }, client.signal);
      const reader = response.body!.getReader();
      let received = '';
      while (received.split('\r\n').length < AUDIT_EXPORT_BATCH) {
        const { value, done } = await reader.read();
        expect(done).toBe(false);
        received += new TextDecoder().decode(value);
      }
      await expect.poll(() => batches.length).toBe(2);
      client.abort();
      await expect.poll(lastExportLog).toMatchObject({ complete: false, batches: 1 });
      release();
      await secondDone;
      // The server answers another request after the dropped batch: still two batches read.
      expect((await exportAs(learner, { format: 'csv' })).status).toBe(403);
      expect(batches).toHaveLength(2);
      expect(lastExportLog()).toMatchObject({ entries: AUDIT_EXPORT_BATCH, complete: false });
    } finally {
      db.queryAsRole = original;
      release();
    }
  });
});
