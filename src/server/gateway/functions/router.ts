/**
 * /functions/v1/{name}: mounts every EdgeFunctionDefinition with CORS, JWT verification
 * (unless the function is public), a body size limit, JSON errors and a timeout. Each
 * function is its own Hono app and sees paths relative to its mount point.
 */
import { Hono, type Context } from 'hono';
import { edgeFunctions } from '../../functions/index';
import type { EdgeFunctionDefinition } from '../../functions/types';
import { CallerError, identifyCaller } from '../api-auth';
import type { ApiEnv, ApiVariables, GatewayDeps } from '../context';
import { BodyError, readBodyLimited } from '../ops/body';
import { clientAddress } from '../ops/client-address';
import { apiCors } from '../ops/cors';
import { cachedVerifier } from '../ops/verified-tokens';

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const PREFIX = '/functions/v1/';

const testFunctions: EdgeFunctionDefinition[] = [];

/**
 * Test hook: functions registered here are mounted (besides the shipped ones) by gateways
 * created afterwards. Returns a function that unregisters it.
 */
export function registerFunctionForTests(definition: EdgeFunctionDefinition): () => void {
  testFunctions.push(definition);
  return () => {
    const index = testFunctions.indexOf(definition);
    if (index >= 0) testFunctions.splice(index, 1);
  };
}

function errorBody(code: string, message: string) {
  return { code, message };
}

interface Mounted {
  definition: EdgeFunctionDefinition;
  app: Hono<ApiEnv>;
}

export function functionsRoutes(
  deps: GatewayDeps,
  definitions: readonly EdgeFunctionDefinition[] = [...edgeFunctions, ...testFunctions],
) {
  // Variables for the request a function app is about to handle, keyed by that Request.
  const pending = new WeakMap<Request, ApiVariables>();
  const verifier = cachedVerifier(deps.verifier);
  const mounted = new Map<string, Mounted>();
  for (const definition of definitions) {
    if (mounted.has(definition.name))
      throw new Error(`Two edge functions are named "${definition.name}"`);
    const app = new Hono<ApiEnv>();
    app.use('*', async (c, next) => {
      const variables = pending.get(c.req.raw);
      if (variables)
        for (const [key, value] of Object.entries(variables)) c.set(key as never, value as never);
      await next();
    });
    app.route('/', definition.create(deps));
    app.notFound((c) =>
      c.json(
        errorBody(
          'not_found',
          `Function "${definition.name}" has no route ${c.req.method} ${c.req.path}`,
        ),
        404,
      ),
    );
    app.onError((error, c) => {
      deps.log.error('edge function failed', { function: definition.name, error: error.message });
      return c.json(errorBody('function_error', error.message || 'The function failed'), 500);
    });
    mounted.set(definition.name, { definition, app });
  }

  const app = new Hono<ApiEnv>();
  app.use('*', apiCors());

  const handle = async (c: Context<ApiEnv>) => {
    const url = new URL(c.req.url);
    const rest = url.pathname.slice(PREFIX.length);
    const slash = rest.indexOf('/');
    const rawName = slash === -1 ? rest : rest.slice(0, slash);
    let name: string;
    try {
      name = decodeURIComponent(rawName);
    } catch {
      name = rawName;
    }
    const target = mounted.get(name);
    if (!target) return c.json(errorBody('not_found', `Function "${name}" not found`), 404);
    const { definition } = target;

    let caller;
    try {
      caller = await identifyCaller(c, verifier, { public: definition.public === true });
    } catch (error) {
      if (!(error instanceof CallerError)) throw error;
      const message = error.reason === 'missing' ? 'Missing authorization header' : error.message;
      return c.json(errorBody('unauthorized', message), 401);
    }

    const limit = definition.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    let body: ArrayBuffer | undefined;
    try {
      body = await readBodyLimited(c.req.raw, limit);
    } catch (error) {
      if (!(error instanceof BodyError)) throw error;
      // The rest of the body may still be on its way: this connection cannot be reused.
      c.header('Connection', 'close');
      return c.json(
        errorBody('payload_too_large', `The request body is larger than ${limit} bytes`),
        413,
      );
    }

    url.pathname = slash === -1 ? '/' : rest.slice(slash);
    const headers = new Headers(c.req.raw.headers);
    // The body is now a buffer of known length, no longer a chunked stream.
    headers.delete('transfer-encoding');
    if (body) headers.set('content-length', String(body.byteLength));
    const request = new Request(url, {
      method: c.req.method,
      headers,
      body: body && c.req.method !== 'GET' && c.req.method !== 'HEAD' ? body : undefined,
    });
    pending.set(request, {
      claims: caller.claims,
      role: caller.claims.role,
      token: caller.token,
      apiKey: caller.apiKey,
      clientAddress: clientAddress(c),
    });

    const timeoutMs = definition.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<Response>((resolve) => {
      timer = setTimeout(
        () =>
          resolve(
            c.json(
              errorBody('timeout', `Function "${name}" did not finish within ${timeoutMs} ms`),
              504,
            ),
          ),
        timeoutMs,
      );
    });
    try {
      // The server's bindings go along, so a function can read its connection (getConnInfo).
      return await Promise.race([target.app.fetch(request, c.env), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  };

  app.all('/:name', handle);
  app.all('/:name/*', handle);
  app.all('/', (c) => c.json(errorBody('not_found', 'Name a function: /functions/v1/{name}'), 404));
  return app;
}
