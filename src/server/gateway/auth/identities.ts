/**
 * Identities: `GET /authorize?provider=` and its `/callback` (OIDC sign-in), `GET
 * /user/identities/authorize` (link another provider) and `DELETE /user/identities/{id}`.
 */
import { Hono, type Context } from 'hono';
import { createUser } from '../../auth/accounts';
import { AuthError, validation, type AuthErrorCode } from '../../auth/errors';
import { issueAuthCodeFor } from '../../auth/flow-state';
import { createOidcProvider, newOidcSecrets, type OidcClaims } from '../../auth/oidc';
import { createSession } from '../../auth/sessions';
import { findUserByEmail, findUserById, isBanned, isUuid } from '../../auth/users';
import type { Queryable } from '../../db/types';
import {
  authBaseUrl,
  clientInfo,
  pkceParams,
  requireUser,
  safeRedirect,
  withParams,
  type AuthEnv,
  type AuthServices,
} from './http';

/** An OAuth round trip must come back within 10 minutes. */
const FLOW_TTL_MS = 10 * 60 * 1000;

interface FlowRow {
  id: string;
  redirect_to: string;
  idp_code_verifier: string;
  idp_nonce: string;
  code_challenge: string | null;
  link_user_id: string | null;
  provider: string;
  created_at: Date;
}

/** A refusal of an IdP's sign-in, with GoTrue's code; the callback puts it in the redirect. */
export class CallbackError extends Error {
  constructor(
    public readonly code: AuthErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Why an IdP sign-in may not create an account here, if it may not (sign-ups off, the beta gate). */
export function newAccountsRefusal(services: AuthServices): string | undefined {
  if (services.config.auth.disableSignup) return 'Signups not allowed for this instance';
  if (services.config.billing.betaGate)
    return 'Lyceum is in its beta: new accounts sign up with a coupon. Sign up with your email and coupon first; then this provider signs you in.';
  return undefined;
}

/**
 * Finds or creates the account an IdP login belongs to; links by verified email. Linked to an
 * anonymous account, the identity makes it permanent (GoTrue's linkIdentityToUser), taking
 * the IdP's verified address if the account has none and no one else has it.
 */
export async function accountFor(
  tx: Queryable,
  provider: string,
  claims: OidcClaims,
  linkUserId: string | null,
  /** False while the beta gate is on: new accounts sign up with a coupon (decision 0601). */
  /** Why no account may be created here, if none may (sign-ups off, or the beta gate). */
  newAccountsRefusal: string | undefined,
): Promise<string> {
  const identityData = {
    ...claims.raw,
    sub: claims.sub,
    email: claims.email,
    email_verified: claims.emailVerified,
    provider_id: claims.sub,
  };
  const { rows } = await tx.query<{ id: string; user_id: string }>(
    'select id, user_id from auth.identities where provider = $1 and provider_id = $2',
    [provider, claims.sub],
  );
  const identity = rows[0];
  const upsertIdentity = async (userId: string) => {
    await tx.query(
      `insert into auth.identities (provider_id, user_id, provider, identity_data, email, last_sign_in_at)
       values ($1, $2, $3, $4, $5, now())
       on conflict (provider, provider_id) do update
         set identity_data = excluded.identity_data, email = excluded.email, last_sign_in_at = now(), updated_at = now()`,
      [claims.sub, userId, provider, JSON.stringify(identityData), claims.email ?? null],
    );
  };

  if (linkUserId) {
    if (identity && identity.user_id !== linkUserId) {
      throw new CallbackError(
        'identity_already_exists',
        'Identity is already linked to another user',
      );
    }
    await upsertIdentity(linkUserId);
    const verified = claims.email && claims.emailVerified ? claims.email : null;
    const holder = verified ? await findUserByEmail(tx, verified) : undefined;
    await tx.query(
      `update auth.users set is_anonymous = false,
         email = coalesce(email, $2), email_confirmed_at = case when email is null and $2::text is not null then now() else email_confirmed_at end,
         raw_app_meta_data = raw_app_meta_data || jsonb_build_object('provider', $3::text),
         updated_at = now()
       where id = $1 and is_anonymous`,
      [linkUserId, holder ? null : verified, provider],
    );
    return linkUserId;
  }
  if (identity) {
    await upsertIdentity(identity.user_id);
    return identity.user_id;
  }
  if (claims.email && claims.emailVerified) {
    const existing = await findUserByEmail(tx, claims.email);
    if (existing) {
      if (!existing.email_confirmed_at) {
        // Whoever registered this unconfirmed address never proved it; the IdP just did. Their
        // password must not open the account that now belongs to the IdP's user.
        await tx.query(
          'update auth.users set encrypted_password = null, email_confirmed_at = now(), updated_at = now() where id = $1',
          [existing.id],
        );
      }
      await upsertIdentity(existing.id);
      return existing.id;
    }
  }
  if (claims.email) {
    const taken = await findUserByEmail(tx, claims.email);
    if (taken) {
      throw new CallbackError(
        'email_exists',
        'An account with this email already exists and the provider did not verify the address',
      );
    }
  }
  if (newAccountsRefusal) throw new CallbackError('signup_disabled', newAccountsRefusal);
  const user = await createUser(tx, {
    email: claims.email ?? '',
    passwordHash: null,
    userMetadata: {
      ...(claims.name ? { full_name: claims.name, name: claims.name } : {}),
      ...(claims.picture ? { avatar_url: claims.picture } : {}),
      ...(claims.email ? { email: claims.email, email_verified: claims.emailVerified } : {}),
    },
    confirmed: claims.emailVerified,
    provider,
  });
  if (!claims.email) await tx.query('update auth.users set email = null where id = $1', [user.id]);
  await upsertIdentity(user.id);
  return user.id;
}

export function identityRoutes(services: AuthServices) {
  const app = new Hono<AuthEnv>();
  const oidc = createOidcProvider(services.config);

  function providerFor(name: string | undefined) {
    if (!name) throw validation('provider is required');
    if (!oidc || oidc.name !== name) {
      throw new AuthError(400, 'validation_failed', `Unsupported provider: ${name} is not enabled`);
    }
    return oidc;
  }

  async function startFlow(c: Context, linkUserId: string | null): Promise<string> {
    const provider = providerFor(c.req.query('provider'));
    const query = c.req.query();
    const pkce = pkceParams(query);
    const redirectTo = safeRedirect(services, c, query.redirect_to);
    const secrets = newOidcSecrets();
    // Abandoned round trips (the user closed the IdP's page) would otherwise stay forever.
    await services.db.query(
      `delete from auth.flow_state where authentication_method = 'oauth' and auth_code is null
         and created_at < now() - interval '1 day'`,
    );
    const { rows } = await services.db.query<{ id: string }>(
      `insert into auth.flow_state (provider, redirect_to, idp_code_verifier, idp_nonce, code_challenge,
         code_challenge_method, link_user_id, authentication_method)
       values ($1, $2, $3, $4, $5, $6, $7, 'oauth') returning id`,
      [
        provider.name,
        redirectTo,
        secrets.codeVerifier,
        secrets.nonce,
        pkce?.challenge ?? null,
        pkce?.method ?? null,
        linkUserId,
      ],
    );
    try {
      return await provider.authorizationUrl({
        redirectUri: `${authBaseUrl(services, c)}/callback`,
        state: rows[0]!.id,
        codeVerifier: secrets.codeVerifier,
        nonce: secrets.nonce,
        scopes: query.scopes,
      });
    } catch (error) {
      services.gateway.log.error('OIDC discovery failed', { error: (error as Error).message });
      throw new AuthError(500, 'unexpected_failure', 'The identity provider could not be reached');
    }
  }

  app.get('/authorize', async (c) => c.redirect(await startFlow(c, null), 302));

  app.get('/user/identities/authorize', requireUser(services), async (c) => {
    if (!services.config.auth.manualLinking)
      throw new AuthError(404, 'manual_linking_disabled', 'Manual linking is disabled');
    const url = await startFlow(c, c.get('user').row.id);
    if (c.req.query('skip_http_redirect') === 'true') return c.json({ url });
    return c.redirect(url, 302);
  });

  app.get('/callback', async (c) => {
    const state = c.req.query('state');
    const flow = isUuid(state)
      ? (
          await services.db.query<FlowRow & Record<string, unknown>>(
            `delete from auth.flow_state where id = $1 and authentication_method = 'oauth' and auth_code is null
             returning id, redirect_to, idp_code_verifier, idp_nonce, code_challenge, link_user_id, provider, created_at`,
            [state],
          )
        ).rows[0]
      : undefined;
    if (!flow || Date.now() - new Date(flow.created_at).getTime() > FLOW_TTL_MS) {
      throw new AuthError(
        400,
        'bad_oauth_state',
        'OAuth state is invalid or has expired: start the sign-in again',
      );
    }
    const fail = (code: string, description: string) =>
      c.redirect(
        withParams(
          flow.redirect_to,
          { error: 'access_denied', error_code: code, error_description: description },
          'hash',
        ),
        303,
      );
    const idpError = c.req.query('error');
    if (idpError) return fail('bad_oauth_callback', c.req.query('error_description') ?? idpError);
    if (!oidc || oidc.name !== flow.provider)
      return fail('validation_failed', 'Provider is no longer enabled');

    let claims: OidcClaims;
    try {
      const callbackUrl = new URL(`${authBaseUrl(services, c)}/callback`);
      callbackUrl.search = new URL(c.req.url).search;
      claims = await oidc.callback({
        callbackUrl,
        state: flow.id,
        codeVerifier: flow.idp_code_verifier,
        nonce: flow.idp_nonce,
      });
    } catch (error) {
      services.gateway.log.warn('OIDC callback rejected', { error: (error as Error).message });
      return fail('bad_oauth_callback', 'The identity provider response could not be verified');
    }

    let outcome: { code?: string; session?: Awaited<ReturnType<typeof createSession>> };
    try {
      outcome = await services.db.transaction(async (tx) => {
        const userId = await accountFor(
          tx,
          flow.provider,
          claims,
          flow.link_user_id,
          newAccountsRefusal(services),
        );
        const user = await findUserById(tx, userId);
        if (!user || isBanned(user)) throw new CallbackError('user_banned', 'User is banned');
        if (flow.code_challenge) {
          await tx.query(
            `insert into auth.flow_state (id, user_id, code_challenge, code_challenge_method, authentication_method, provider)
             values ($1, $2, $3, 's256', 'oauth', $4)`,
            [flow.id, userId, flow.code_challenge, flow.provider],
          );
          return { code: await issueAuthCodeFor(tx, flow.id, userId) };
        }
        return { session: await createSession(services, tx, userId, 'oauth', clientInfo(c)) };
      });
    } catch (error) {
      if (error instanceof CallbackError) return fail(error.code, error.message);
      throw error;
    }
    if (outcome.code)
      return c.redirect(withParams(flow.redirect_to, { code: outcome.code }, 'query'), 303);
    const session = outcome.session!;
    return c.redirect(
      withParams(
        flow.redirect_to,
        {
          access_token: session.access_token,
          expires_at: session.expires_at,
          expires_in: session.expires_in,
          refresh_token: session.refresh_token,
          token_type: 'bearer',
          provider_type: flow.provider,
        },
        'hash',
      ),
      303,
    );
  });

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
