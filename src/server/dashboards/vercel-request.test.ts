import { describe, expect, it } from 'vitest';
import { parseVercelRequest } from './vercel-request';

describe('parseVercelRequest', () => {
  it('reads the endpoint from a query string as URLSearchParams#toString gives it', () => {
    expect(parseVercelRequest({ searchParams: 'endpoint=projects' })).toEqual({
      ok: true,
      query: { endpoint: 'projects' },
    });
    expect(parseVercelRequest({ searchParams: '?endpoint=deployments&limit=5' })).toEqual({
      ok: true,
      query: { endpoint: 'deployments', limit: 5 },
    });
    expect(
      parseVercelRequest({ searchParams: { endpoint: 'analytics', projectId: 'prj_abc' } }),
    ).toEqual({ ok: true, query: { endpoint: 'analytics', projectId: 'prj_abc' } });
  });

  it('defaults the deployment limit to 5', () => {
    expect(parseVercelRequest({ searchParams: 'endpoint=deployments' })).toMatchObject({
      ok: true,
      query: { limit: 5 },
    });
  });

  it('refuses a missing body, an unknown endpoint and bad parameters with a clear message', () => {
    expect(parseVercelRequest(null)).toMatchObject({ ok: false });
    expect(parseVercelRequest({})).toMatchObject({
      ok: false,
      message: expect.stringContaining('searchParams'),
    });
    expect(parseVercelRequest({ searchParams: 'endpoint=teams' })).toEqual({
      ok: false,
      message: 'Unknown endpoint "teams": use projects, deployments or analytics',
    });
    expect(parseVercelRequest({ searchParams: 'endpoint=deployments&limit=500' })).toMatchObject({
      ok: false,
      message: expect.stringContaining('limit'),
    });
    expect(parseVercelRequest({ searchParams: 'endpoint=analytics' })).toMatchObject({
      ok: false,
      message: expect.stringContaining('projectId'),
    });
    expect(
      parseVercelRequest({ searchParams: 'endpoint=analytics&projectId=../v2/user' }),
    ).toMatchObject({ ok: false, message: expect.stringContaining('projectId') });
  });
});
