/**
 * A small client for the parts of the Vercel REST API the deployment panel reads:
 * `GET /v9/projects`, `GET /v6/deployments` and the Web Analytics count
 * `GET /v1/query/web-analytics/visits/count` (page views and visitors; the API has no request
 * or bandwidth totals, so those stay null rather than being made up).
 */

import type {
  VercelAnalytics,
  VercelDeployment,
  VercelProject,
} from '../../common/vercel-analytics';

export interface VercelSettings {
  token: string;
  /** Base URL, e.g. https://api.vercel.com (a local fake in tests). */
  apiUrl: string;
  teamId?: string;
}

export const analyticsWindowHours = 24;
const requestTimeoutMs = 8_000;

type Fetch = typeof fetch;

export interface VercelClient {
  listProjects(): Promise<VercelProject[]>;
  listDeployments(options: { limit: number; projectId?: string }): Promise<VercelDeployment[]>;
  getAnalytics(projectId: string, now?: number): Promise<VercelAnalytics>;
}

/** Vercel's error body is `{ error: { code, message } }`. */
async function errorMessage(response: Response): Promise<string> {
  const fallback = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  try {
    const body = (await response.json()) as { error?: { message?: unknown } };
    const message = body?.error?.message;
    return typeof message === 'string' && message
      ? `${message} (HTTP ${response.status})`
      : fallback;
  } catch {
    return fallback;
  }
}

function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

function asArray(value: unknown, field: string): unknown[] {
  const list = asRecord(value)[field];
  if (!Array.isArray(list)) throw new Error(`unexpected response: no "${field}" list`);
  return list;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

export function createVercelClient(
  settings: VercelSettings,
  fetchImpl: Fetch = fetch,
): VercelClient {
  const base = settings.apiUrl.replace(/\/+$/, '');

  async function get(path: string, params: Record<string, string | undefined>): Promise<unknown> {
    const url = new URL(base + path);
    for (const [key, value] of Object.entries(params)) {
      if (value !== undefined) url.searchParams.set(key, value);
    }
    if (settings.teamId) url.searchParams.set('teamId', settings.teamId);
    let response: Response;
    try {
      response = await fetchImpl(url, {
        headers: { Authorization: `Bearer ${settings.token}`, Accept: 'application/json' },
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(
        (error as Error)?.name === 'TimeoutError' ? 'the provider did not answer in time' : reason,
      );
    }
    if (!response.ok) throw new Error(await errorMessage(response));
    try {
      return await response.json();
    } catch {
      throw new Error('the provider answered with invalid JSON');
    }
  }

  return {
    async listProjects() {
      const list = asArray(await get('/v9/projects', { limit: '100' }), 'projects');
      return list.flatMap((item) => {
        const p = asRecord(item);
        const id = text(p.id);
        if (!id) return [];
        return [
          {
            id,
            name: text(p.name) ?? id,
            framework: text(p.framework),
            updatedAt: count(p.updatedAt),
          },
        ];
      });
    },

    async listDeployments({ limit, projectId }) {
      const list = asArray(
        await get('/v6/deployments', { limit: String(limit), projectId }),
        'deployments',
      );
      return list
        .flatMap((item) => {
          const d = asRecord(item);
          const uid = text(d.uid);
          const created = count(d.created) ?? count(d.createdAt);
          if (!uid || created === null) return [];
          return [
            {
              id: uid,
              uid,
              name: text(d.name) ?? uid,
              url: text(d.url),
              state: text(d.state) ?? text(d.readyState) ?? 'UNKNOWN',
              created,
            },
          ];
        })
        .sort((a, b) => b.created - a.created);
    },

    async getAnalytics(projectId, now = Date.now()) {
      const body = asRecord(
        await get('/v1/query/web-analytics/visits/count', {
          projectId,
          since: String(now - analyticsWindowHours * 3_600_000),
          until: String(now),
        }),
      );
      const data = asRecord(body.data);
      const pageViews = count(data.pageviews) ?? count(data.pageViews);
      const visitors = count(data.visitors);
      if (pageViews === null || visitors === null) {
        throw new Error('unexpected response: no page view or visitor counts');
      }
      return {
        requests: null,
        bandwidth: null,
        visitors,
        pageViews,
        windowHours: analyticsWindowHours,
      };
    },
  };
}
