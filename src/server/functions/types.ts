import type { Hono } from 'hono';
import type { ApiEnv, GatewayDeps } from '../gateway/context';

/**
 * One edge function: a Hono sub-app mounted at /functions/v1/{name}. The router adds CORS,
 * JWT verification (unless `public`), a body size limit, JSON errors and a timeout, and
 * sets `claims`, `role`, `token` and `apiKey` on the context as for every API service.
 */
export interface EdgeFunctionDefinition {
  name: string;
  /** Public functions accept requests without a valid JWT (claims default to anon). */
  public?: boolean;
  /** Default 10 000 ms. */
  timeoutMs?: number;
  /** Default 1 MiB. */
  maxBodyBytes?: number;
  create(deps: GatewayDeps): Hono<ApiEnv>;
}
