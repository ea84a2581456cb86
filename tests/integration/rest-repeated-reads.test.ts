import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untilFresh, waitForRelation } from '../support/rest-fixtures';
import {
  databaseKinds,
  signUserToken,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';

const alice = randomUUID();
const bob = randomUUID();

/**
 * `rp_` tables. The gateway keeps the SQL of a read it has built (decision 0029): a query
 * repeated by another caller, or with other headers, or after the schema changed, must still
 * answer as if built for it.
 */
const fixture = `
create table public.rp_notes (id int primary key, owner uuid not null, body text not null);
alter table public.rp_notes enable row level security;
create policy own_notes on public.rp_notes for select to authenticated using (owner = auth.uid());
grant select on public.rp_notes to authenticated;
insert into public.rp_notes values
  (1, '${alice}', 'a1'), (2, '${alice}', 'a2'), (3, '${alice}', 'a3'), (4, '${bob}', 'b1');
notify pgrst, 'reload schema';
`;

describe.each(databaseKinds)('REST reads repeated on %s', (kind) => {
  let server: TestServer;
  let asAlice: SupabaseClient;
  let asBob: SupabaseClient;
  let service: SupabaseClient;

  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.deps.db.exec(fixture);
    await waitForRelation(server, 'rp_notes');
    service = testClient(server, server.serviceRoleKey);
    asAlice = testClient(server, server.anonKey, await signUserToken(server, alice));
    asBob = testClient(server, server.anonKey, await signUserToken(server, bob));
  });
  afterAll(() => server?.stop());

  it('answers the same query with each caller its own rows', async () => {
    const query = (client: SupabaseClient) =>
      client.from('rp_notes').select('id, body').order('id');
    for (let round = 0; round < 2; round++) {
      expect((await query(asAlice)).data).toEqual([
        { id: 1, body: 'a1' },
        { id: 2, body: 'a2' },
        { id: 3, body: 'a3' },
      ]);
      expect((await query(asBob)).data).toEqual([{ id: 4, body: 'b1' }]);
      expect((await query(service)).data).toHaveLength(4);
    }
  });

  it('answers the same query string with other ranges, counts and formats', async () => {
    const url = `${server.url}/rest/v1/rp_notes?select=id&order=id`;
    const headers = { apikey: server.serviceRoleKey };
    const read = async (extra: Record<string, string>) => {
      const response = await fetch(url, { headers: { ...headers, ...extra } });
      return {
        status: response.status,
        range: response.headers.get('content-range'),
        body: await response.text(),
      };
    };
    expect(await read({})).toEqual({
      status: 200,
      range: '0-3/*',
      body: '[{"id":1}, \n {"id":2}, \n {"id":3}, \n {"id":4}]',
    });
    expect(await read({ Range: '1-2' })).toEqual({
      status: 200,
      range: '1-2/*',
      body: '[{"id":2}, \n {"id":3}]',
    });
    expect(await read({ Range: '1-2', 'Range-Unit': 'bytes' })).toMatchObject({
      range: '0-3/*',
    });
    expect(await read({ Range: '1-2', Prefer: 'count=exact' })).toEqual({
      status: 206,
      range: '1-2/4',
      body: '[{"id":2}, \n {"id":3}]',
    });
    expect(await read({ Accept: 'text/csv' })).toMatchObject({
      status: 200,
      body: 'id\n1\n2\n3\n4',
    });
    expect(await read({})).toMatchObject({ range: '0-3/*' });
  });

  it('reads the new shape of a table once its schema changed', async () => {
    const first = await service.from('rp_notes').select('*').eq('id', 4);
    expect(first.data).toEqual([{ id: 4, owner: bob, body: 'b1' }]);
    await server.deps.db.exec(
      `alter table public.rp_notes add column pinned boolean not null default false;
       notify pgrst, 'reload schema';`,
    );
    const after = await untilFresh(
      () => service.from('rp_notes').select('*').eq('id', 4),
      (answer) => !answer.data?.[0] || !('pinned' in answer.data[0]),
    );
    expect(after.data).toEqual([{ id: 4, owner: bob, body: 'b1', pinned: false }]);
  });

  it('refuses a query that failed before just as it did the first time', async () => {
    for (let round = 0; round < 2; round++) {
      const { error, status } = await service.from('rp_notes').select('nope');
      expect(status).toBe(400);
      expect(error?.code).toBe('42703');
    }
  });
});
