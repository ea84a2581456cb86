/**
 * `/admin/users` for the service-role key: list, create, read, update, ban, delete; and
 * `/invite` (`supabase.auth.admin.inviteUserByEmail`).
 */
import { Hono } from 'hono';
import { brand } from '../../../common/brand';
import { applyEmailChange, confirmEmail, createUser, setPassword } from '../../auth/accounts';
import { removeFactor } from '../../auth/factors';
import { inviteUser } from '../../auth/invitations';
import { passwordChangedNotice } from '../../auth/mail';
import { AuthError, validation } from '../../auth/errors';
import { checkPasswordStrength, hashPassword } from '../../auth/passwords';
import {
  factorJson,
  findUserByEmail,
  isUuid,
  loadUser,
  normalizeEmail,
  userJson,
} from '../../auth/users';
import type { Queryable } from '../../db/types';
import { authJson, adminUserBody, inviteBody } from './bodies';
import {
  authBaseUrl,
  optionalObject,
  optionalString,
  requireServiceRole,
  safeRedirect,
  type AuthEnv,
  type AuthServices,
} from './http';
import { verifyLink } from './signup';

const units: Record<string, number> = {
  h: 3600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
  us: 0.001,
  µs: 0.001,
  ns: 0.000001,
};

/** Go duration strings as Supabase Auth takes them for `ban_duration` ("24h", "1h30m", "none"). */
export function parseBanDuration(value: string): number | 'none' {
  if (value === 'none') return 'none';
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== value) {
    throw validation('ban_duration must be a duration like "24h" or "1h30m", or "none"');
  }
  return parts.reduce((sum, p) => sum + Number(p[1]) * units[p[2]!]!, 0);
}

async function applyBan(tx: Queryable, userId: string, banDuration: unknown) {
  if (banDuration === undefined || banDuration === null) return;
  if (typeof banDuration !== 'string') throw validation('ban_duration must be a string');
  const duration = parseBanDuration(banDuration);
  if (duration === 'none') {
    await tx.query('update auth.users set banned_until = null where id = $1', [userId]);
    return;
  }
  await tx.query('update auth.users set banned_until = $2 where id = $1', [
    userId,
    new Date(Date.now() + duration),
  ]);
  // A banned user's sessions end now, not when their refresh tokens next rotate.
  await tx.query('delete from auth.sessions where user_id = $1', [userId]);
}

/** `page` / `per_page` as GoTrue reads them: unsigned integers, or a 400 saying which. */
function pageNumber(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,15}$/.test(value))
    throw validation(
      `Bad Pagination Parameters: strconv.ParseUint: parsing "${value}": invalid syntax`,
    );
  return Number(value);
}

/** `sort=created_at [asc|desc]`, newest first by default, as GoTrue lists users. */
function sortDirection(value: string | undefined): 'asc' | 'desc' {
  if (value === undefined || value === '') return 'desc';
  const [field, direction = 'desc', ...rest] = value.trim().split(/\s+/);
  if (field !== 'created_at') throw validation(`Bad Sort Parameters: unknown field ${field}`);
  if (rest.length > 0 || (direction !== 'asc' && direction !== 'desc'))
    throw validation(`Bad Sort Parameters: unknown direction ${direction}`);
  return direction;
}

function metadataArg(body: Record<string, unknown>, ...keys: string[]) {
  for (const key of keys) {
    const value = optionalObject(body, key);
    if (value) return value;
  }
  return undefined;
}

export function adminRoutes(services: AuthServices) {
  const app = new Hono<AuthEnv>();
  app.use('/admin/*', requireServiceRole(services));
  app.use('/invite', requireServiceRole(services));

  async function existing(id: string) {
    const user = isUuid(id) ? await loadUser(services.db, id) : undefined;
    if (!user) throw new AuthError(404, 'user_not_found', 'User not found');
    return user;
  }

  app.get('/admin/users', async (c) => {
    const page = Math.max(1, pageNumber(c.req.query('page'), 1));
    const perPage = Math.min(1000, Math.max(1, pageNumber(c.req.query('per_page'), 50)));
    const direction = sortDirection(c.req.query('sort'));
    // GoTrue's filter: part of the address, or of the full name in any case.
    const filter = c.req.query('filter') ?? '';
    const pattern = `%${filter}%`;
    const where = filter
      ? `where email like $1 or raw_user_meta_data->>'full_name' ilike $1`
      : 'where $1::text is not null';
    const { rows: countRows } = await services.db.query<{ n: number }>(
      `select count(*)::int as n from auth.users ${where}`,
      [pattern],
    );
    const total = countRows[0]!.n;
    const { rows } = await services.db.query<{ id: string }>(
      `select id from auth.users ${where}
       order by created_at ${direction}, id ${direction} limit $2 offset $3`,
      [pattern, perPage, (page - 1) * perPage],
    );
    const users = [];
    for (const row of rows) {
      const user = await loadUser(services.db, row.id);
      if (user) users.push(userJson(user));
    }
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    const base = new URL(c.req.url);
    const link = (p: number, rel: string) => {
      base.searchParams.set('page', String(p));
      base.searchParams.set('per_page', String(perPage));
      return `<${base.pathname}${base.search}>; rel="${rel}"`;
    };
    const links = [];
    if (page < lastPage) links.push(link(page + 1, 'next'));
    links.push(link(lastPage, 'last'));
    c.header('x-total-count', String(total));
    c.header('link', links.join(', '));
    return c.json({ users, aud: 'authenticated' });
  });

  app.post('/admin/users', async (c) => {
    const body = await authJson(c, adminUserBody);
    const email = normalizeEmail(body.email);
    if (!email)
      throw new AuthError(400, 'email_address_invalid', 'A valid email address is required');
    const password = optionalString(body, 'password');
    if (password !== undefined)
      checkPasswordStrength(password, services.config.auth.passwordMinLength);
    const passwordHash = password !== undefined ? await hashPassword(password) : null;
    const id = await services.db.transaction(async (tx) => {
      if (await findUserByEmail(tx, email)) {
        throw new AuthError(
          422,
          'email_exists',
          'A user with this email address has already been registered',
        );
      }
      const created = await createUser(tx, {
        email,
        passwordHash,
        userMetadata: metadataArg(body, 'user_metadata', 'data') ?? {},
        appMetadata: metadataArg(body, 'app_metadata'),
        confirmed: body.email_confirm === true,
      });
      await applyBan(tx, created.id, body.ban_duration);
      return created.id;
    });
    return c.json(userJson((await loadUser(services.db, id))!));
  });

  /**
   * GoTrue's invitation: an account without a password and a mail whose link (type `invite`)
   * signs the invitee in at `redirect_to`, where they choose a password. An address with a
   * confirmed account gets 422 `email_exists`; one invited before gets a fresh link.
   */
  app.post('/invite', async (c) => {
    const body = await authJson(c, inviteBody);
    const email = normalizeEmail(body.email);
    if (!email)
      throw new AuthError(400, 'email_address_invalid', 'A valid email address is required');
    const redirectTo = safeRedirect(
      services,
      c,
      c.req.query('redirect_to') ?? optionalString(body, 'redirect_to'),
    );
    const base = authBaseUrl(services, c);
    const invitation = await services.db.transaction((tx) =>
      inviteUser(tx, {
        email,
        userMetadata: optionalObject(body, 'data') ?? {},
        linkFor: (tokenHash) => verifyLink(base, tokenHash, 'invite', redirectTo),
      }),
    );
    await services.mailer.send(invitation.mail);
    return c.json(userJson((await loadUser(services.db, invitation.user.id))!));
  });

  app.get('/admin/users/:id', async (c) => c.json(userJson(await existing(c.req.param('id')))));

  app.put('/admin/users/:id', async (c) => {
    const user = await existing(c.req.param('id'));
    const body = await authJson(c, adminUserBody);
    const password = optionalString(body, 'password');
    if (password !== undefined)
      checkPasswordStrength(password, services.config.auth.passwordMinLength);
    const passwordHash = password !== undefined ? await hashPassword(password) : undefined;
    const emailParam = body.email;
    const email =
      emailParam === undefined || emailParam === null ? undefined : normalizeEmail(emailParam);
    if (emailParam !== undefined && emailParam !== null && !email) {
      throw new AuthError(
        400,
        'email_address_invalid',
        `Email address "${String(emailParam)}" is invalid`,
      );
    }
    await services.db.transaction(async (tx) => {
      const id = user.row.id;
      if (email && email !== user.row.email) {
        const taken = await findUserByEmail(tx, email);
        if (taken && taken.id !== id)
          throw new AuthError(
            422,
            'email_exists',
            'A user with this email address has already been registered',
          );
        await applyEmailChange(tx, id, email);
      }
      // An administrator's change ends every session: whoever held the old password is out.
      if (passwordHash)
        await setPassword(tx, { id, email: email ?? user.row.email }, passwordHash, undefined);
      if (body.email_confirm === true) await confirmEmail(tx, id);
      const userMetadata = metadataArg(body, 'user_metadata', 'data');
      if (userMetadata) {
        await tx.query(
          'update auth.users set raw_user_meta_data = raw_user_meta_data || $2::jsonb where id = $1',
          [id, JSON.stringify(userMetadata)],
        );
      }
      const appMetadata = metadataArg(body, 'app_metadata');
      if (appMetadata) {
        // Roles live in public.user_roles; app_metadata.roles is derived from it, never stored.
        const { roles: _roles, ...rest } = appMetadata;
        await tx.query(
          'update auth.users set raw_app_meta_data = raw_app_meta_data || $2::jsonb where id = $1',
          [id, JSON.stringify(rest)],
        );
      }
      await applyBan(tx, id, body.ban_duration);
      await tx.query('update auth.users set updated_at = now() where id = $1', [id]);
    });
    const updated = (await loadUser(services.db, user.row.id))!;
    if (passwordHash && updated.row.email) {
      await services.mailer.post(passwordChangedNotice(updated.row.email, brand.product, 'admin'));
    }
    return c.json(userJson(updated));
  });

  /** A user's factors, for support: `supabase.auth.admin.mfa.listFactors({ userId })`. */
  app.get('/admin/users/:id/factors', async (c) => {
    const user = await existing(c.req.param('id'));
    return c.json(user.factors.map(factorJson));
  });

  /**
   * The way back for a user who lost their authenticator and their recovery codes: an
   * administrator removes the factor (`supabase.auth.admin.mfa.deleteFactor`), the user signs
   * in with the password alone and enrols again.
   */
  app.delete('/admin/users/:id/factors/:factorId', async (c) => {
    const user = await existing(c.req.param('id'));
    const factorId = c.req.param('factorId');
    const factor = user.factors.find((f) => f.id === factorId);
    if (!factor) throw new AuthError(404, 'mfa_factor_not_found', 'Factor not found');
    await services.db.transaction((tx) => removeFactor(tx, user.row.id, factor.id));
    // GoTrue answers with the factor it removed (`adminUserDeleteFactor`), not just its id.
    return c.json(factorJson(factor));
  });

  app.delete('/admin/users/:id', async (c) => {
    const user = await existing(c.req.param('id'));
    await services.db.query('delete from auth.users where id = $1', [user.row.id]);
    return c.json({});
  });

  return app;
}
