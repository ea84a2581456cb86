/**
 * /functions/v1/api-keys: an organization admin's API keys (decision 0610). The router has
 * verified the token; the database checks that the caller is a signed-in administrator of the
 * organization (never a key) before anything is read or written.
 *
 *   GET  /organizations/{org}/keys                  the keys, in use first
 *   POST /organizations/{org}/keys      { name }    a new key, its secret shown once (201)
 *   POST /organizations/{org}/keys/{key}/revoke     stops the key at once
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { newApiKeySchema } from '../../common/api-keys';
import type { ApiEnv, GatewayDeps } from '../gateway/context';
import { functionJson } from '../gateway/functions/function-body';
import {
  ApiKeyError,
  createOrganizationKey,
  listOrganizationKeys,
  revokeOrganizationKey,
} from '../public-api/organization-keys';
import type { EdgeFunctionDefinition } from './types';

function createApp(deps: GatewayDeps) {
  const app = new Hono<ApiEnv>();

  /** The signed-in caller; the service role and anon administer no organization. */
  const actorOf = (c: Context<ApiEnv>): string => {
    const claims = c.get('claims');
    if (claims.role !== 'authenticated' || typeof claims.sub !== 'string')
      throw new ApiKeyError(403, 'forbidden', 'Sign in as an administrator of the organization.');
    return claims.sub;
  };

  app.use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    await next();
  });

  app.onError((error, c) => {
    if (error instanceof ApiKeyError)
      return c.json({ error: error.message, code: error.code, hint: error.hint }, error.status);
    throw error;
  });

  app.get('/organizations/:org/keys', async (c) =>
    c.json(await listOrganizationKeys(deps.db, actorOf(c), c.req.param('org'))),
  );

  app.post(
    '/organizations/:org/keys',
    functionJson(newApiKeySchema, { hint: 'Send { "name": "…" } naming the key.' }),
    async (c) => {
      const { name } = c.req.valid('json');
      const created = await createOrganizationKey(
        deps.db,
        deps.keys.current,
        actorOf(c),
        c.req.param('org'),
        name,
      );
      return c.json(created, 201);
    },
  );

  app.post('/organizations/:org/keys/:key/revoke', async (c) =>
    c.json({
      key: await revokeOrganizationKey(deps.db, actorOf(c), c.req.param('org'), c.req.param('key')),
    }),
  );

  return app;
}

export const apiKeysFunction: EdgeFunctionDefinition = {
  name: 'api-keys',
  create: createApp,
};
