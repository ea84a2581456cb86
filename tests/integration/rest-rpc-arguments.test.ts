import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  databaseKinds,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';

/** `ra_` functions: array, variadic, single unnamed and overloaded parameters. */
const fixture = `
create function public.ra_tags(tags text[]) returns text language sql
  as $$ select array_to_string(tags, '+') $$;
create function public.ra_sum(variadic nums int[]) returns int language sql
  as 'select sum(n)::int from unnest(nums) n';
create function public.ra_reverse(text) returns text language sql as 'select reverse($1)';
create function public.ra_length(bytea) returns int language sql as 'select length($1)';
create function public.ra_same(a int) returns text language sql as $$ select 'int' $$;
create function public.ra_same(a text) returns text language sql as $$ select 'text' $$;
notify pgrst, 'reload schema';
`;

describe.each(databaseKinds)('REST RPC arguments on %s', (kind) => {
  let server: TestServer;
  let service: SupabaseClient;
  const rpcUrl = (name: string) => `${server.url}/rest/v1/rpc/${name}`;
  const headers = () => ({
    apikey: server.serviceRoleKey,
    Authorization: `Bearer ${server.serviceRoleKey}`,
  });

  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.deps.db.exec(fixture);
    service = testClient(server, server.serviceRoleKey);
    for (let i = 0; i < 50; i++) {
      if ((await service.rpc('ra_tags', { tags: ['x'] })).status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  afterAll(() => server?.stop());

  it('reads repeated GET parameters as an array, and an array literal as written', async () => {
    const repeated = await fetch(`${rpcUrl('ra_tags')}?tags=a&tags=b&tags=c`, {
      headers: headers(),
    });
    expect(repeated.status).toBe(200);
    expect(await repeated.json()).toBe('a+b+c');
    const one = await fetch(`${rpcUrl('ra_tags')}?tags=solo`, { headers: headers() });
    expect(await one.json()).toBe('solo');
    // supabase-js sends arrays on GET as literals.
    expect((await service.rpc('ra_tags', { tags: ['d', 'e'] }, { get: true })).data).toBe('d+e');
  });

  it('passes variadic arguments as an array by POST and as repeated parameters by GET', async () => {
    expect((await service.rpc('ra_sum', { nums: [1, 2, 3] })).data).toBe(6);
    const get = await fetch(`${rpcUrl('ra_sum')}?nums=4&nums=5`, { headers: headers() });
    expect(await get.json()).toBe(9);
    const bad = await fetch(`${rpcUrl('ra_sum')}?nums=4&nums=x`, { headers: headers() });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: '22P02' });
  });

  it('sends a text or binary body whole to a single unnamed parameter of that type', async () => {
    const text = await fetch(rpcUrl('ra_reverse'), {
      method: 'POST',
      headers: { ...headers(), 'Content-Type': 'text/plain; charset=utf-8' },
      body: 'hello, wörld',
    });
    expect(text.status).toBe(200);
    expect(await text.json()).toBe('dlröw ,olleh');

    const bytes = await fetch(rpcUrl('ra_length'), {
      method: 'POST',
      headers: { ...headers(), 'Content-Type': 'application/octet-stream' },
      body: new Uint8Array([0, 1, 2, 255, 254]),
    });
    expect(bytes.status).toBe(200);
    expect(await bytes.json()).toBe(5);

    const noTextParameter = await fetch(rpcUrl('ra_length'), {
      method: 'POST',
      headers: { ...headers(), 'Content-Type': 'text/plain' },
      body: 'abc',
    });
    expect(noTextParameter.status).toBe(404);
    expect(await noTextParameter.json()).toMatchObject({
      code: 'PGRST202',
      details:
        'Searched for the function public.ra_length with a single unnamed text parameter, but no matches were found in the schema cache.',
    });
  });

  it('answers PGRST203 with PostgREST’s hint when argument names cannot choose an overload', async () => {
    const { error, status } = await service.rpc('ra_same', { a: 1 });
    expect(status).toBe(300);
    expect(error).toEqual({
      code: 'PGRST203',
      details: null,
      hint: 'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
      message:
        'Could not choose the best candidate function between: public.ra_same(a => integer), public.ra_same(a => text)',
    });
  });
});
