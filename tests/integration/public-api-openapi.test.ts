/**
 * The public API's OpenAPI 3.1 document (decision 0611) as a client downloads it: valid by
 * a maintained validator, generated from the schemas that validate the requests, and naming
 * only operations the server answers.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMemberSchema } from '../../src/common/org-people';
import { functionOperations, tableOperations } from '../../src/server/public-api/operations';
import { jsonSchema } from '../../src/server/public-api/openapi';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe.each(databaseKinds)('OpenAPI document on %s', (kind) => {
  let server: TestServer;
  let document: Json;

  beforeAll(async () => {
    server = await startTestServer(kind);
    const answer = await fetch(`${server.url}/api/openapi.json`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/application\/json/);
    document = (await answer.json()) as Json;
  });
  afterAll(() => server?.stop());

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(document.servers).toEqual([{ url: server.url }]);
  });

  it('describes each table from its columns in the database', async () => {
    const { rows } = await server.deps.db.query<{ column_name: string }>(
      `select column_name::text from information_schema.columns
        where table_schema = 'public' and table_name = 'enrollments' order by ordinal_position`,
    );
    const schema = document.components.schemas.enrollments;
    expect(Object.keys(schema.properties)).toEqual(rows.map((r) => r.column_name));
    expect(schema.properties.user_id).toEqual({ type: 'string', format: 'uuid' });
    const insert =
      document.paths['/rest/v1/enrollments'].post.requestBody.content['application/json'].schema
        .oneOf[0];
    // user_id defaults to the caller in the database, so only the course is required.
    expect(insert.required).toEqual(['course_id']);
    for (const { table, methods } of tableOperations)
      expect(Object.keys(document.paths[`/rest/v1/${table}`]).sort()).toEqual(
        Object.keys(methods).sort(),
      );
  });

  it("takes a function's body schema from the zod schema its handler validates with", () => {
    const operation = document.paths['/functions/v1/org-people/organizations/{org}/members'].post;
    expect(operation.requestBody.content['application/json'].schema).toEqual(
      jsonSchema(newMemberSchema, 'input'),
    );
    const exportParameters = document.paths['/functions/v1/org-export/organizations/{org}'].get
      .parameters as { name: string }[];
    expect(exportParameters.map((p) => p.name)).toEqual([
      'org',
      'format',
      'course_id',
      'board_id',
      'enrolled_from',
      'enrolled_to',
    ]);
  });

  it('names only routes the server has, and shows examples in curl and supabase-js', async () => {
    const org = '00000000-0000-4000-8000-000000000000';
    for (const operation of functionOperations) {
      const url = `${server.url}${operation.path.replace('{org}', org).replace('{user}', org)}`;
      const answer = await fetch(url, {
        method: operation.method.toUpperCase(),
        headers: { apikey: server.anonKey, 'Content-Type': 'application/json' },
        body: operation.method === 'get' ? undefined : '{}',
      });
      const body = (await answer.json()) as { message?: string; error?: string };
      // The function exists and refused the anonymous caller; an unknown route would say so.
      expect(`${operation.path}: ${body.message ?? body.error}`).not.toMatch(
        /has no route|not found/,
      );
    }
    const samples = document.paths['/rest/v1/profiles'].get['x-codeSamples'] as {
      lang: string;
    }[];
    expect(samples.map((s) => s.lang)).toEqual(['Shell', 'JavaScript']);
  });

  it('is rendered at /api/reference, every operation and example of it, with no script', async () => {
    const answer = await fetch(`${server.url}/api/reference`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    const policy = answer.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/default-src 'none'/);
    expect(policy).not.toMatch(/script-src/);
    const html = await answer.text();
    expect(html).not.toMatch(/<script/i);
    const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
    const text = html.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => entities[name]!);
    for (const [path, item] of Object.entries(document.paths as Json))
      for (const operation of Object.values(item as Json) as Json[]) {
        expect(html).toContain(`id="op-${operation.operationId}"`);
        expect(text).toContain(operation.summary);
        expect(text).toContain(path);
        for (const sample of (operation['x-codeSamples'] ?? []) as { source: string }[])
          expect(text).toContain(sample.source);
      }
    for (const model of Object.keys(document.components.schemas))
      expect(html).toContain(`id="model-${model}"`);
    expect(html).toContain(`<code>${server.url}</code>`);
    expect(html).toContain('href="/api/openapi.json"');
  });
});
