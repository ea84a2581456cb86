/**
 * /functions/v1/org-sso: an organization admin's SAML identity providers (decision 0034), the
 * same validation and storage as GoTrue's admin API (src/server/auth/sso-providers.ts), limited
 * to the caller's organization. Only the organization's owner or an organization-wide admin
 * (learning.is_org_admin) may read or change them; a board admin may not, since a provider
 * signs people into the whole organization.
 *
 *   GET    /organizations/{org}                   SP details and the organization's providers
 *   POST   /organizations/{org}/providers         register one (201)
 *   PUT    /organizations/{org}/providers/{id}    change its metadata, domains, mapping
 *   DELETE /organizations/{org}/providers/{id}    remove it
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { SsoSettings } from '../../common/sso';
import { AuthError } from '../auth/errors';
import {
  createProvider,
  deleteProvider,
  findProvider,
  listProviders,
  parseProviderParams,
  providerJson,
  updateProvider,
} from '../auth/sso-providers';
import { authBaseUrl } from '../gateway/auth/http';
import type { ApiEnv, GatewayDeps } from '../gateway/context';
import type { EdgeFunctionDefinition } from './types';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

class SsoCallError extends Error {
  constructor(
    public readonly status: 400 | 403 | 404 | 413 | 422,
    public readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function createApp(deps: GatewayDeps) {
  const app = new Hono<ApiEnv>();
  const allowed = deps.config.auth.saml.metadataAllowedTargets;

  app.use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    await next();
  });

  app.onError((error, c) => {
    if (error instanceof SsoCallError || error instanceof AuthError) {
      return c.json({ error: error.message, code: error.code }, error.status as 400);
    }
    throw error;
  });

  /** The organization, once the caller is known to administer it. */
  async function administered(c: Context<ApiEnv>): Promise<string> {
    const claims = c.get('claims');
    const org = c.req.param('org') ?? '';
    if (claims.role !== 'authenticated' || typeof claims.sub !== 'string') {
      throw new SsoCallError(403, 'forbidden', 'Sign in as an administrator of the organization.');
    }
    if (!UUID.test(org)) throw new SsoCallError(404, 'not_found', 'No such organization.');
    const { rows } = await deps.db.query<{ admin: boolean }>(
      'select learning.is_org_admin($1, $2) as admin',
      [claims.sub, org],
    );
    if (!rows[0]?.admin) {
      throw new SsoCallError(
        403,
        'forbidden',
        'Only the organization’s owner or an organization-wide admin manages single sign-on.',
      );
    }
    return org;
  }

  async function ownProvider(org: string, id: string | undefined) {
    const provider = await findProvider(deps.db, id);
    if (!provider || provider.organization_id !== org) {
      throw new SsoCallError(404, 'not_found', 'This organization has no such identity provider.');
    }
    return provider;
  }

  async function body(c: Context<ApiEnv>): Promise<Record<string, unknown>> {
    const value: unknown = await c.req.json().catch(() => undefined);
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      throw new SsoCallError(400, 'invalid_input', 'Send the provider as a JSON object.');
    }
    // The organization comes from the path, never from the body.
    const { organization_id: _ignored, ...rest } = value as Record<string, unknown>;
    return rest;
  }

  app.get('/organizations/:org', async (c) => {
    const org = await administered(c);
    const base = authBaseUrl(deps, c);
    const settings: SsoSettings = {
      serviceProvider: {
        entityId: `${base}/sso/saml/metadata`,
        acsUrl: `${base}/sso/saml/acs`,
        metadataUrl: `${base}/sso/saml/metadata`,
      },
      providers: (await listProviders(deps.db, { organizationId: org })).map(
        (p) => providerJson(p, { withXml: false }) as SsoSettings['providers'][number],
      ),
    };
    return c.json(settings);
  });

  app.post('/organizations/:org/providers', async (c) => {
    const org = await administered(c);
    const params = parseProviderParams({ ...(await body(c)), type: 'saml' }, false);
    params.organizationId = org;
    const id = await deps.db.transaction((tx) => createProvider(tx, params, allowed));
    return c.json(providerJson((await findProvider(deps.db, id))!, { withXml: false }), 201);
  });

  app.put('/organizations/:org/providers/:id', async (c) => {
    const org = await administered(c);
    const provider = await ownProvider(org, c.req.param('id'));
    const params = parseProviderParams(await body(c), true);
    params.organizationId = undefined;
    await deps.db.transaction((tx) => updateProvider(tx, provider, params, allowed));
    return c.json(providerJson((await findProvider(deps.db, provider.id))!, { withXml: false }));
  });

  app.delete('/organizations/:org/providers/:id', async (c) => {
    const org = await administered(c);
    const provider = await ownProvider(org, c.req.param('id'));
    await deps.db.transaction((tx) => deleteProvider(tx, provider.id));
    return c.json({ id: provider.id });
  });

  return app;
}

export const orgSsoFunction: EdgeFunctionDefinition = {
  name: 'org-sso',
  create: createApp,
};
