import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';

/** `REST_DB_SCHEMAS` as start-up reads it (PostgREST's `db-schemas`). */
function schemas(value: string | undefined): string[] {
  return loadConfig({}, { NODE_ENV: 'test', REST_DB_SCHEMAS: value }).rest.schemas;
}

function problems(value: string): string[] {
  try {
    schemas(value);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('REST_DB_SCHEMAS', () => {
  it('exposes public alone by default, and the listed schemas in order otherwise', () => {
    expect(schemas(undefined)).toEqual(['public']);
    expect(schemas('api, public ,Special Schema')).toEqual(['api', 'public', 'Special Schema']);
  });

  it('stops start-up on an empty, repeated or over-long name, saying which', () => {
    expect(problems('public,,api')).toEqual(['REST_DB_SCHEMAS.1: a schema name is empty']);
    expect(problems('public, public')).toEqual(['REST_DB_SCHEMAS: a schema is listed twice']);
    expect(problems(`public,${'s'.repeat(64)}`)).toEqual([
      'REST_DB_SCHEMAS.1: a schema name is over 63 bytes',
    ]);
  });
});

describe('REST_DB_EXTRA_SEARCH_PATH', () => {
  const extra = (value: string | undefined) =>
    loadConfig({}, { NODE_ENV: 'test', REST_DB_EXTRA_SEARCH_PATH: value }).rest.extraSearchPath;

  it('puts public after the request’s schema by default, the listed schemas or none otherwise', () => {
    expect(extra(undefined)).toEqual(['public']);
    expect(extra('extensions, public')).toEqual(['extensions', 'public']);
    expect(extra('')).toEqual([]);
  });

  it('stops start-up on an empty or repeated name', () => {
    expect(() => extra('public,,x')).toThrow(ConfigError);
    expect(() => extra('x,x')).toThrow(ConfigError);
  });
});
