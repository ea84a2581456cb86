import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForRelation } from '../support/rest-fixtures';
import {
  databaseKinds,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';

/** Tables every database can have: no geometry anywhere. */
const plainFixture = `
create table public.rg_projects (id int primary key, name text not null);
insert into public.rg_projects values (1, 'Survey'), (2, 'Mapping');
create function public.rg_project_count() returns int language sql stable
  as 'select count(*)::int from public.rg_projects';
notify pgrst, 'reload schema';
`;

/**
 * PostGIS in this test's own database only (production databases may lack it, so no migration
 * creates it): shops with a point each, beacons embedded in them, a function returning shops.
 */
const postgisFixture = `
create extension if not exists postgis;
create table public.rg_shops (id int primary key, address text not null, shop_geom geometry(Point, 4326));
create table public.rg_beacons (
  id int primary key,
  shop_id int not null references public.rg_shops(id),
  name text not null
);
create function public.rg_shop(shop int) returns setof public.rg_shops language sql stable
  as 'select * from public.rg_shops where id = shop';
create function public.rg_shop_count() returns int language sql stable
  as 'select count(*)::int from public.rg_shops';
create function public.rg_shop_point(shop int) returns geometry language sql stable
  as 'select shop_geom from public.rg_shops where id = shop';
create function public.rg_shop_points() returns setof geometry language sql stable
  as 'select shop_geom from public.rg_shops order by id';
insert into public.rg_shops values
  (1, '1369 Cambridge St', 'SRID=4326;POINT(-71.10044 42.373695)'),
  (2, '757 Massachusetts Ave', 'SRID=4326;POINT(-71.10543 42.366432)');
insert into public.rg_beacons values (1, 1, 'Beacon-1');
notify pgrst, 'reload schema';
`;

const GEO = 'application/geo+json; charset=utf-8';

/** PostgREST's answer when PostGIS is not installed: the function it calls does not exist. */
const noPostgis = {
  code: '42883',
  message: 'function st_asgeojson(record) does not exist',
  details: null,
  hint: 'No function matches the given name and argument types. You might need to add explicit type casts.',
};

describe.each(databaseKinds)('REST application/geo+json on %s', (kind) => {
  let server: TestServer;
  let db: SupabaseClient;
  const url = (path: string) => `${server.url}/rest/v1/${path}`;
  const headers = (extra: Record<string, string> = {}) => ({
    apikey: server.serviceRoleKey,
    Authorization: `Bearer ${server.serviceRoleKey}`,
    Accept: 'application/geo+json',
    ...extra,
  });

  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.deps.db.exec(plainFixture);
    await waitForRelation(server, 'rg_projects');
    db = testClient(server, server.serviceRoleKey);
  });
  afterAll(() => server?.stop());

  it('answers as PostgREST does without PostGIS: 404 42883, never JSON in another format', async () => {
    const answer = await db.from('rg_projects').select('id, name').geojson();
    expect(answer.status).toBe(404);
    expect(answer.error).toEqual(noPostgis);
    const raw = await fetch(url('rg_projects'), { headers: headers() });
    expect(raw.headers.get('content-type')).toMatch(/^application\/json/);
    // A function of one value is written the same way, so it meets the same answer.
    const scalar = await db.rpc('rg_project_count').geojson();
    expect(scalar.status).toBe(404);
    expect(scalar.error).toEqual(noPostgis);
  });

  if (kind !== 'postgres') return;

  describe('with PostGIS created in the database', () => {
    beforeAll(async () => {
      await server.deps.db.exec(postgisFixture);
      await waitForRelation(server, 'rg_shops');
    });

    it('answers a read as a FeatureCollection, the geometry column as each geometry', async () => {
      const answer = await db.from('rg_shops').select('*').order('id').geojson();
      expect(answer.status).toBe(200);
      expect(answer.data).toEqual({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            geometry: { type: 'Point', coordinates: [-71.10044, 42.373695] },
            properties: { id: 1, address: '1369 Cambridge St' },
          },
          {
            type: 'Feature',
            geometry: { type: 'Point', coordinates: [-71.10543, 42.366432] },
            properties: { id: 2, address: '757 Massachusetts Ave' },
          },
        ],
      });
      const raw = await fetch(url('rg_shops?id=gt.5'), { headers: headers() });
      expect(raw.headers.get('content-type')).toBe(GEO);
      expect(await raw.json()).toEqual({ type: 'FeatureCollection', features: [] });
    });

    it('keeps only the selected columns, embeds as properties, and calls functions', async () => {
      const picked = await db
        .from('rg_shops')
        .select('id, shop_geom, rg_beacons(name)')
        .eq('id', 1)
        .geojson();
      expect(picked.data).toEqual({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            geometry: { type: 'Point', coordinates: [-71.10044, 42.373695] },
            properties: { id: 1, rg_beacons: [{ name: 'Beacon-1' }] },
          },
        ],
      });
      const call = await db
        .rpc('rg_shop', { shop: 2 }, { get: true })
        .select('id, shop_geom')
        .geojson();
      expect(call.status).toBe(200);
      expect(call.data).toMatchObject({
        type: 'FeatureCollection',
        features: [{ geometry: { type: 'Point' }, properties: { id: 2 } }],
      });
    });

    it('answers writes with return=representation in GeoJSON', async () => {
      const response = await fetch(url('rg_shops'), {
        method: 'POST',
        headers: headers({ 'Content-Type': 'application/json', Prefer: 'return=representation' }),
        body: JSON.stringify({
          id: 3,
          address: '605 W Kendall St',
          shop_geom: 'SRID=4326;POINT(-71.081924 42.36437)',
        }),
      });
      expect(response.status).toBe(201);
      expect(response.headers.get('content-type')).toBe(GEO);
      expect(await response.json()).toEqual({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            geometry: { type: 'Point', coordinates: [-71.081924, 42.36437] },
            properties: { id: 3, address: '605 W Kendall St' },
          },
        ],
      });
    });

    it('refuses a table without a geometry column and a function of one value, as PostgREST', async () => {
      const noGeometry = await db.from('rg_projects').select('id').geojson();
      expect(noGeometry.status).toBe(400);
      expect(noGeometry.error).toEqual({
        code: '22023',
        message: 'geometry column is missing',
        details: null,
        hint: null,
      });
      // A value that is not a geometry is PostGIS's refusal too, as PostgREST answers.
      const scalar = await db.rpc('rg_shop_count').geojson();
      expect(scalar.status).toBe(400);
      expect(scalar.error).toMatchObject({ code: '22023', message: 'geometry column is missing' });
    });

    it('writes a function’s geometry values as Features without properties, as PostgREST', async () => {
      const point = await db.rpc('rg_shop_point', { shop: 1 }).geojson();
      expect(point.status).toBe(200);
      expect(point.data).toEqual({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            geometry: { type: 'Point', coordinates: [-71.10044, 42.373695] },
            properties: {},
          },
        ],
      });
      const raw = await fetch(url('rpc/rg_shop_points?limit=2'), { headers: headers() });
      expect(raw.status).toBe(200);
      expect(raw.headers.get('content-type')).toBe(GEO);
      const points = (await raw.json()) as { features: { geometry: { coordinates: number[] } }[] };
      expect(points.features.map((f) => f.geometry.coordinates)).toEqual([
        [-71.10044, 42.373695],
        [-71.10543, 42.366432],
      ]);
    });
  });
});
