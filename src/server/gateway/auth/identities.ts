/**
 * Identities: `GET /authorize?provider=` and its `/callback` (OIDC sign-in), `GET
 * /user/identities/authorize` (link another provider) and `DELETE /user/identities/{id}`.
 */
import { Hono } from 'hono';
import { AuthError } from '../../auth/errors';
import { isUuid } from '../../auth/users';
import { requireUser, type AuthEnv, type AuthServices } from './http';

export function identityRoutes(services: AuthServices) {
  const app = new Hono<AuthEnv>();

  app.delete('/user/identities/:id', requireUser(services), async (c) => {
    const user = c.get('user');
    const id = c.req.param('id');
    const identity = isUuid(id) ? user.identities.find((i) => i.id === id) : undefined;
    if (!identity) throw new AuthError(404, 'identity_not_found', "Identity doesn't exist");
    if (user.identities.length <= 1) {
      throw new AuthError(
        422,
        'single_identity_not_deletable',
        'User must have at least 1 identity after unlinking',
      );
    }
    await services.db.query('delete from auth.identities where id = $1 and user_id = $2', [
      identity.id,
      user.row.id,
    ]);
    return c.json({});
  });

  return app;
}
