/**
 * `/admin/sso/providers` for the service-role key, in GoTrue's shapes (supabase's CLI and
 * dashboard speak them): list (`{items}`, without metadata XML), create (201), get, update
 * (PUT; domains replaced when given), delete (the deleted provider).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import {
  createProvider,
  deleteProvider,
  findProvider,
  listProviders,
  notFoundProvider,
  parseProviderParams,
  providerJson,
  updateProvider,
} from '../../auth/sso-providers';
import { authJson } from './bodies';
import { requireServiceRole, type AuthEnv, type AuthServices } from './http';

const providerBody = z.looseObject({});

export function ssoAdminRoutes(services: AuthServices) {
  const app = new Hono<AuthEnv>();
  const allowed = services.config.auth.saml.metadataAllowedTargets;
  app.use('/admin/sso/*', requireServiceRole(services));

  async function existing(id: string) {
    const provider = await findProvider(services.db, id);
    if (!provider) throw notFoundProvider();
    return provider;
  }

  app.get('/admin/sso/providers', async (c) => {
    const items = await listProviders(services.db);
    return c.json({ items: items.map((p) => providerJson(p, { withXml: false })) });
  });

  app.post('/admin/sso/providers', async (c) => {
    const params = parseProviderParams(await authJson(c, providerBody), false);
    const id = await services.db.transaction((tx) => createProvider(tx, params, allowed));
    return c.json(providerJson((await findProvider(services.db, id))!, { withXml: true }), 201);
  });

  app.get('/admin/sso/providers/:id', async (c) =>
    c.json(providerJson(await existing(c.req.param('id')), { withXml: true })),
  );

  app.put('/admin/sso/providers/:id', async (c) => {
    const provider = await existing(c.req.param('id'));
    const params = parseProviderParams(await authJson(c, providerBody), true);
    await services.db.transaction((tx) => updateProvider(tx, provider, params, allowed));
    return c.json(providerJson((await findProvider(services.db, provider.id))!, { withXml: true }));
  });

  app.delete('/admin/sso/providers/:id', async (c) => {
    const provider = await existing(c.req.param('id'));
    await services.db.transaction((tx) => deleteProvider(tx, provider.id));
    return c.json(providerJson(provider, { withXml: true }));
  });

  return app;
}
