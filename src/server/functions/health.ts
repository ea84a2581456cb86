import { Hono } from 'hono';
import type { ApiEnv } from '../gateway/context';
import type { EdgeFunctionDefinition } from './types';

/** Liveness of the functions runtime; public so monitors need no key. */
export const healthFunction: EdgeFunctionDefinition = {
  name: 'health',
  public: true,
  timeoutMs: 2000,
  create: () =>
    new Hono<ApiEnv>().all('/', (c) =>
      c.json({ status: 'ok', function: 'health', time: new Date().toISOString() }),
    ),
};
