/**
 * A local stand-in for the Vercel REST API on a loopback port, answering the endpoints the
 * deployment panel uses with bodies of the real API's shape. Switch it to fail (Vercel's error
 * shape) or to an account with no projects; every request is recorded for assertions.
 */
import http from 'node:http';

export type FakeVercelMode = 'ok' | 'fail' | 'empty';

export interface FakeVercelRequest {
  path: string;
  query: Record<string, string>;
  authorization: string | undefined;
}

export interface FakeVercel {
  url: string;
  token: string;
  requests: FakeVercelRequest[];
  setMode(mode: FakeVercelMode): void;
  close(): Promise<void>;
}

const hour = 3_600_000;

export const fakeProjects = [
  {
    id: 'prj_lyceum0001',
    name: 'lyceum-web',
    accountId: 'team_fake',
    framework: 'vite',
    createdAt: 1_760_000_000_000,
    updatedAt: 1_763_000_000_000,
    nodeVersion: '20.x',
  },
  {
    id: 'prj_docs0002',
    name: 'lyceum-docs',
    accountId: 'team_fake',
    framework: null,
    createdAt: 1_760_000_000_000,
    updatedAt: 1_762_000_000_000,
    nodeVersion: '20.x',
  },
];

/** Deployments relative to now, newest first, one in each state the panel styles. */
export function fakeDeployments(now = Date.now()) {
  const make = (n: number, state: string, ageMs: number) => ({
    uid: `dpl_fake${n}`,
    name: 'lyceum-web',
    url: `lyceum-web-${n}.vercel.app`,
    created: now - ageMs,
    createdAt: now - ageMs,
    state,
    readyState: state,
    type: 'LAMBDAS',
    target: n === 1 ? 'production' : null,
    creator: { uid: 'usr_fake', username: 'lyceum-ci' },
    meta: {},
    inspectorUrl: `https://vercel.com/lyceum/lyceum-web/dpl_fake${n}`,
  });
  return [
    make(1, 'BUILDING', 2 * 60_000),
    make(2, 'READY', 3 * hour),
    make(3, 'ERROR', 26 * hour),
    make(4, 'CANCELED', 50 * hour),
    make(5, 'READY', 80 * hour),
  ];
}

export const fakeAnalytics = { pageviews: 1234, visitors: 321 };

function send(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

export async function startFakeVercel(token = 'fake-vercel-token'): Promise<FakeVercel> {
  let mode: FakeVercelMode = 'ok';
  const requests: FakeVercelRequest[] = [];

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push({
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      authorization: req.headers.authorization,
    });
    if (req.method !== 'GET')
      return send(res, 405, {
        error: { code: 'method_not_allowed', message: 'Method not allowed' },
      });
    if (req.headers.authorization !== `Bearer ${token}`) {
      return send(res, 403, {
        error: { code: 'forbidden', message: 'Not authorized', invalidToken: true },
      });
    }
    if (mode === 'fail') {
      return send(res, 500, {
        error: { code: 'internal_server_error', message: 'An unexpected internal error occurred' },
      });
    }
    const pagination = (count: number) => ({ count, next: null, prev: null });
    switch (url.pathname) {
      case '/v9/projects': {
        const projects = mode === 'empty' ? [] : fakeProjects;
        return send(res, 200, { projects, pagination: pagination(projects.length) });
      }
      case '/v6/deployments': {
        const limit = Number(url.searchParams.get('limit') ?? 20);
        const projectId = url.searchParams.get('projectId');
        const all = mode === 'empty' ? [] : fakeDeployments();
        const deployments = all
          .filter(() => !projectId || projectId === fakeProjects[0]!.id)
          .slice(0, limit);
        return send(res, 200, { deployments, pagination: pagination(deployments.length) });
      }
      case '/v1/query/web-analytics/visits/count': {
        const projectId = url.searchParams.get('projectId');
        if (!fakeProjects.some((p) => p.id === projectId || p.name === projectId)) {
          return send(res, 404, { error: { code: 'not_found', message: 'Project not found' } });
        }
        return send(res, 200, { data: fakeAnalytics });
      }
      default:
        return send(res, 404, {
          error: { code: 'not_found', message: 'The requested path was not found' },
        });
    }
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    requests,
    setMode(next) {
      mode = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
