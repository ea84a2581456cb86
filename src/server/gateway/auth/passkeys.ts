/**
 * GoTrue's passkey API as auth-js 2.119 calls it: `signInWithPasskey` (authentication options
 * and verify), `registerPasskey` (registration options and verify), `passkey.list`, `update`
 * and `delete`, and the admin's `passkey.listPasskeys` / `deletePasskey`. Behind
 * AUTH_PASSKEYS (off: GoTrue's 404 `passkey_disabled`).
 */
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import { AuthError, validation } from '../../auth/errors';
import {
  consumeCeremony,
  passkeyByCredentialId,
  passkeyJson,
  startCeremony,
  userPasskeys,
  type CeremonyKind,
  type PasskeyRow,
} from '../../auth/passkeys';
import { createSession } from '../../auth/sessions';
import { isBanned, isUuid, loadUser, type LoadedUser } from '../../auth/users';
import {
  assertionIds,
  authenticationOptions,
  checkAssertion,
  checkRegistration,
  registrationOptions,
  relyingParty,
} from '../../auth/webauthn';
import { authJson } from './bodies';
import { refuseAnonymous } from './factors';
import {
  clientInfo,
  optionalString,
  requireServiceRole,
  requireUser,
  type AuthContext,
  type AuthEnv,
  type AuthServices,
} from './http';

const ceremonyBody = z.looseObject({ challenge_id: z.unknown(), credential: z.unknown() });
const updateBody = z.looseObject({ friendly_name: z.string().nullish() });

/** GoTrue's requirePasskeyManagementAAL: with MFA on, passkeys are managed at aal2 only. */
function requireManagementAal(c: AuthContext) {
  const mfaOn = c
    .get('user')
    .factors.some((f) => f.status === 'verified' && f.factor_type !== 'recovery_code');
  if (mfaOn && c.get('session').aal !== 'aal2') {
    throw new AuthError(
      403,
      'insufficient_aal',
      'AAL2 session is required to manage passkeys when MFA is enabled',
    );
  }
}

function passkeyNotFound(): AuthError {
  return new AuthError(404, 'validation_failed', 'Passkey not found');
}

export function passkeyRoutes(services: AuthServices) {
  const app = new Hono<AuthEnv>();
  const settings = services.config.auth.webauthn;

  const requireEnabled = createMiddleware<AuthEnv>(async (_c, next) => {
    if (!settings.passkeys) throw new AuthError(404, 'passkey_disabled', 'Passkeys are disabled');
    await next();
  });
  app.use('/passkeys', requireEnabled);
  app.use('/passkeys/*', requireEnabled);
  app.use('/passkeys/registration/*', requireUser(services), refuseAnonymous);

  /** The ceremony a verify call names, taken for good, or GoTrue's 400s. */
  async function ceremony(
    body: { challenge_id?: unknown; credential?: unknown },
    kind: CeremonyKind,
    userId: string | null,
  ) {
    if (body.challenge_id === undefined || body.challenge_id === null || body.challenge_id === '') {
      throw validation('challenge_id is required');
    }
    if (body.credential === undefined || body.credential === null) {
      throw validation('credential is required');
    }
    if (typeof body.challenge_id !== 'string' || !isUuid(body.challenge_id)) {
      throw validation('challenge_id must be a valid UUID');
    }
    const taken = await consumeCeremony(services.db, body.challenge_id, kind, userId);
    if (!taken) {
      throw new AuthError(
        400,
        'webauthn_challenge_not_found',
        'Challenge not found or already used',
      );
    }
    if (taken.expired) {
      throw new AuthError(400, 'webauthn_challenge_expired', 'Challenge has expired');
    }
    return taken.state;
  }

  app.post('/passkeys/authentication/options', async (c) => {
    services.limits.hit('sign_in', clientInfo(c).ip);
    const rp = relyingParty(services.config, c.req.url);
    const options = await authenticationOptions(rp, []);
    const started = await startCeremony(services.db, 'passkey_authentication', null, {
      type: 'request',
      challenge: options.challenge,
    });
    return c.json({
      challenge_id: started.id,
      options,
      expires_at: Math.floor(started.expiresAt.getTime() / 1000),
    });
  });

  app.post('/passkeys/authentication/verify', async (c) => {
    const client = clientInfo(c);
    services.limits.hit('sign_in', client.ip);
    const body = await authJson(c, ceremonyBody);
    const state = await ceremony(body, 'passkey_authentication', null);
    const ids = assertionIds(body.credential);
    if (!ids) {
      throw new AuthError(400, 'webauthn_verification_failed', 'Invalid credential response');
    }
    const passkey = await passkeyByCredentialId(services.db, ids.id);
    if (!passkey || (ids.userHandle !== undefined && ids.userHandle !== passkey.user_id)) {
      throw new AuthError(400, 'webauthn_verification_failed', 'Credential verification failed');
    }
    const rp = relyingParty(services.config, c.req.url);
    const counter = await checkAssertion(
      rp,
      state,
      passkey.web_authn_credential,
      body.credential,
      'webauthn_verification_failed',
    );
    const user = (await loadUser(services.db, passkey.user_id))!;
    if (user.row.email && !user.row.email_confirmed_at) {
      throw new AuthError(403, 'email_not_confirmed', 'Email not confirmed');
    }
    if (user.row.phone && !user.row.email && !user.row.phone_confirmed_at) {
      throw new AuthError(403, 'phone_not_confirmed', 'Phone not confirmed');
    }
    if (isBanned(user.row)) throw new AuthError(403, 'user_banned', 'User is banned');
    const session = await services.db.transaction(async (tx) => {
      // The counter moves only forward: a second use of one signature loses here.
      const moved = await tx.query(
        `update auth.mfa_factors set web_authn_credential = $2, last_used_at = now(), updated_at = now()
         where id = $1 and (web_authn_credential ->> 'counter')::bigint = $3 returning id`,
        [
          passkey.id,
          JSON.stringify({ ...passkey.web_authn_credential, counter }),
          passkey.web_authn_credential.counter,
        ],
      );
      if (moved.rows.length === 0) return undefined;
      return createSession(services, tx, user.row.id, 'passkey', client);
    });
    if (!session) {
      throw new AuthError(400, 'webauthn_verification_failed', 'Credential verification failed');
    }
    return c.json(session);
  });

  function userName(user: LoadedUser): string {
    return user.row.email || user.row.phone || user.row.id;
  }

  app.post('/passkeys/registration/options', async (c) => {
    requireManagementAal(c);
    const user = c.get('user');
    const existing = await userPasskeys(services.db, user.row.id);
    if (existing.length >= settings.maxPasskeysPerUser) {
      throw new AuthError(422, 'too_many_passkeys', 'Maximum number of passkeys reached');
    }
    const rp = relyingParty(services.config, c.req.url);
    const options = await registrationOptions(
      rp,
      { id: user.row.id, name: userName(user) },
      existing.map((p) => p.web_authn_credential),
      'required',
    );
    const started = await startCeremony(services.db, 'passkey_registration', user.row.id, {
      type: 'create',
      challenge: options.challenge,
    });
    return c.json({
      challenge_id: started.id,
      options,
      expires_at: Math.floor(started.expiresAt.getTime() / 1000),
    });
  });

  app.post('/passkeys/registration/verify', async (c) => {
    requireManagementAal(c);
    const user = c.get('user');
    const body = await authJson(c, ceremonyBody);
    const state = await ceremony(body, 'passkey_registration', user.row.id);
    const rp = relyingParty(services.config, c.req.url);
    const { credential, aaguid } = await checkRegistration(
      rp,
      state,
      body.credential,
      'webauthn_verification_failed',
    );
    const created = await services.db.transaction(async (tx) => {
      const { rows: count } = await tx.query<{ n: number }>(
        `select count(*)::int as n from auth.mfa_factors where user_id = $1 and factor_type = 'passkey'`,
        [user.row.id],
      );
      if (count[0]!.n >= settings.maxPasskeysPerUser) {
        return new AuthError(422, 'too_many_passkeys', 'Maximum number of passkeys reached');
      }
      const { rows: taken } = await tx.query(
        `select 1 from auth.mfa_factors where web_authn_credential ->> 'id' = $1`,
        [credential.id],
      );
      if (taken.length > 0) {
        return new AuthError(
          422,
          'webauthn_credential_exists',
          'This credential is already registered',
        );
      }
      const { rows } = await tx.query<PasskeyRow & Record<string, unknown>>(
        `insert into auth.mfa_factors
           (user_id, friendly_name, factor_type, status, web_authn_credential, web_authn_aaguid)
         values ($1, $2, 'passkey', 'verified', $3, $4)
         returning id, user_id, friendly_name, web_authn_credential, created_at, last_used_at`,
        [user.row.id, `Passkey ${count[0]!.n + 1}`, JSON.stringify(credential), aaguid],
      );
      return rows[0]!;
    });
    if (created instanceof AuthError) throw created;
    return c.json(passkeyJson(created));
  });

  app.get('/passkeys', requireUser(services), async (c) => {
    const passkeys = await userPasskeys(services.db, c.get('user').row.id);
    return c.json(passkeys.map(passkeyJson));
  });

  async function ownPasskey(userId: string, id: string): Promise<PasskeyRow> {
    if (!isUuid(id)) throw passkeyNotFound();
    const found = (await userPasskeys(services.db, userId)).find((p) => p.id === id);
    if (!found) throw passkeyNotFound();
    return found;
  }

  app.patch('/passkeys/:id', requireUser(services), async (c) => {
    const body = await authJson(c, updateBody);
    const name = optionalString(body, 'friendly_name')?.trim() ?? '';
    if (!name) throw validation('friendly_name is required');
    if (name.length > 120) throw validation('friendly_name must be 120 characters or less');
    const passkey = await ownPasskey(c.get('user').row.id, c.req.param('id'));
    await services.db.query(
      'update auth.mfa_factors set friendly_name = $2, updated_at = now() where id = $1',
      [passkey.id, name],
    );
    return c.json(passkeyJson({ ...passkey, friendly_name: name }));
  });

  app.delete('/passkeys/:id', requireUser(services), async (c) => {
    requireManagementAal(c);
    const passkey = await ownPasskey(c.get('user').row.id, c.req.param('id'));
    await services.db.query('delete from auth.mfa_factors where id = $1', [passkey.id]);
    return c.body(null, 204);
  });

  async function adminTarget(id: string) {
    const user = isUuid(id) ? await loadUser(services.db, id) : undefined;
    if (!user) throw new AuthError(404, 'user_not_found', 'User not found');
    return user;
  }

  app.get('/admin/users/:id/passkeys', requireServiceRole(services), async (c) => {
    const user = await adminTarget(c.req.param('id'));
    return c.json((await userPasskeys(services.db, user.row.id)).map(passkeyJson));
  });

  app.delete('/admin/users/:id/passkeys/:passkeyId', requireServiceRole(services), async (c) => {
    const user = await adminTarget(c.req.param('id'));
    const passkey = await ownPasskey(user.row.id, c.req.param('passkeyId'));
    await services.db.query('delete from auth.mfa_factors where id = $1', [passkey.id]);
    return c.body(null, 204);
  });

  return app;
}
