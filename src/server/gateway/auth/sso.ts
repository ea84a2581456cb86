/**
 * SAML single sign-on as GoTrue serves it to supabase-js's `signInWithSSO` (decision 0032):
 * `POST /sso` answers the IdP's URL with an AuthnRequest, the IdP posts the response to
 * `POST /sso/saml/acs`, which ends in the usual session redirect (implicit fragment or PKCE
 * `?code=`); `GET /sso/saml/metadata` is our SP metadata. The ACS and the metadata are open:
 * a browser posts and an IdP fetches them without an API key.
 */
import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { AuthError, validation } from '../../auth/errors';
import { issueAuthCodeFor } from '../../auth/flow-state';
import {
  authnRequestUrl,
  mapAttributes,
  MAX_SAML_XML_BYTES,
  readResponseEnvelope,
  SamlError,
  serviceProviderMetadata,
  verifySamlResponse,
  type ServiceProvider,
} from '../../auth/saml';
import { SsoSignInError, ssoAccountFor, ssoProviderName } from '../../auth/sso-accounts';
import {
  findProvider,
  findProviderByDomain,
  findProviderByEntityId,
  type SsoProviderRow,
} from '../../auth/sso-providers';
import { createSession } from '../../auth/sessions';
import { findUserById, isBanned, isUuid } from '../../auth/users';
import { authJson } from './bodies';
import {
  authBaseUrl,
  clientInfo,
  pkceParams,
  safeRedirect,
  withParams,
  type AuthEnv,
  type AuthServices,
} from './http';

const text = z.string().nullish();
const ssoBody = z.looseObject({
  provider_id: text,
  domain: text,
  redirect_to: text,
  skip_http_redirect: z.boolean().nullish(),
  code_challenge: text,
  code_challenge_method: text,
});

interface RelayStateRow {
  id: string;
  sso_provider_id: string;
  request_id: string;
  redirect_to: string;
  code_challenge: string | null;
  code_challenge_method: string | null;
  created_at: Date;
}

export function serviceProviderFor(services: AuthServices, c: Context): ServiceProvider {
  const base = authBaseUrl(services, c);
  return { entityId: `${base}/sso/saml/metadata`, acsUrl: `${base}/sso/saml/acs` };
}

export function ssoRoutes(services: AuthServices) {
  const app = new Hono<AuthEnv>();
  const saml = services.config.auth.saml;

  app.post('/sso', async (c) => {
    services.limits.hit('sign_in', clientInfo(c).ip);
    const body = await authJson(c, ssoBody);
    const providerId = body.provider_id || undefined;
    const domain = body.domain?.trim().toLowerCase() || undefined;
    if (providerId && domain) throw validation('Only one of provider_id or domain supported');
    if (!providerId && !domain) throw validation('A provider_id or domain needs to be provided');
    const pkce = pkceParams(body);
    let provider: SsoProviderRow | undefined;
    if (providerId) {
      if (!isUuid(providerId)) throw validation('provider_id must be a UUID');
      provider = await findProvider(services.db, providerId);
      if (!provider) throw new AuthError(404, 'sso_provider_not_found', 'No such SSO provider');
    } else {
      provider = await findProviderByDomain(services.db, domain!);
      if (!provider) {
        throw new AuthError(
          404,
          'sso_provider_not_found',
          'No SSO provider assigned for this domain',
        );
      }
    }
    if (provider.disabled) {
      throw new AuthError(
        404,
        'sso_provider_disabled',
        'SSO Provider assigned for this domain is currently disabled',
      );
    }
    const redirectTo = safeRedirect(services, c, body.redirect_to);
    const requestId = `_${randomBytes(20).toString('hex')}`;
    // Requests nobody answered would otherwise stay forever.
    await services.db.query(
      'delete from auth.saml_relay_states where created_at < now() - make_interval(secs => $1)',
      [(saml.requestTtlMs / 1000) * 2],
    );
    const { rows } = await services.db.query<{ id: string }>(
      `insert into auth.saml_relay_states (sso_provider_id, request_id, redirect_to, code_challenge, code_challenge_method)
       values ($1, $2, $3, $4, $5) returning id`,
      [provider.id, requestId, redirectTo, pkce?.challenge ?? null, pkce?.method ?? null],
    );
    let url: string;
    try {
      url = await authnRequestUrl(
        {
          entityId: provider.entity_id,
          metadataXml: provider.metadata_xml,
          nameIdFormat: provider.name_id_format,
        },
        serviceProviderFor(services, c),
        {
          requestId,
          relayState: rows[0]!.id,
          clockSkewMs: saml.clockSkewMs,
          requestTtlMs: saml.requestTtlMs,
        },
      );
    } catch (error) {
      services.gateway.log.error('SAML AuthnRequest failed', { error: (error as Error).message });
      throw new AuthError(
        500,
        'unexpected_failure',
        'Error creating SAML Authentication Request: the provider’s metadata could not be used',
      );
    }
    if (body.skip_http_redirect === true) return c.json({ url });
    return c.redirect(url, 303);
  });

  app.get('/sso/saml/metadata', (c) => {
    const xml = serviceProviderMetadata(serviceProviderFor(services, c));
    c.header('Content-Type', 'application/xml; charset=utf-8');
    c.header('Cache-Control', 'public, max-age=600');
    if (c.req.query('download') === 'true') {
      c.header('Content-Disposition', 'attachment; filename="metadata.xml"');
    }
    return c.body(xml);
  });

  app.post(
    '/sso/saml/acs',
    bodyLimit({
      maxSize: Math.ceil(MAX_SAML_XML_BYTES * 1.4) + 4096,
      onError: () => {
        throw validation('SAMLResponse is too large');
      },
    }),
    async (c) => {
      services.limits.hit('sign_in', clientInfo(c).ip);
      let redirectTo = safeRedirect(services, c, undefined);
      const fail = (code: string, description: string) =>
        c.redirect(
          withParams(
            redirectTo,
            { error: 'access_denied', error_code: code, error_description: description },
            'query',
          ),
          303,
        );
      try {
        return await consume(c, (target) => {
          redirectTo = target;
        });
      } catch (error) {
        if (error instanceof AuthError || error instanceof SsoSignInError) {
          services.gateway.log.warn('SAML sign-in refused', {
            code: error.code,
            reason: error.message,
          });
          return fail(error.code, error.message);
        }
        throw error;
      }
    },
  );

  async function consume(c: Context<AuthEnv>, returnTo: (target: string) => void) {
    const form = await c.req.parseBody().catch(() => {
      throw validation('The ACS expects an HTML form post with SAMLResponse and RelayState');
    });
    const samlResponse = typeof form.SAMLResponse === 'string' ? form.SAMLResponse : '';
    const relayStateId = typeof form.RelayState === 'string' ? form.RelayState : '';
    if (!samlResponse) throw validation('SAMLResponse is missing');
    if (!isUuid(relayStateId)) {
      throw validation(
        'SAML RelayState is not a sign-in started here: start at the sign-in page (sign-ins started at the identity provider are not accepted)',
      );
    }
    let envelope;
    try {
      envelope = readResponseEnvelope(samlResponse);
    } catch (error) {
      if (error instanceof SamlError) {
        throw validation(`SAML Assertion is not valid: ${error.message}`);
      }
      throw error;
    }
    if (envelope.issuer && !(await findProviderByEntityId(services.db, envelope.issuer))) {
      throw new AuthError(
        404,
        'saml_idp_not_found',
        'A SAML connection has not been established with this Identity Provider',
      );
    }
    // The request is used up now, whatever follows: a response answers it once.
    const relay = (
      await services.db.query<RelayStateRow & Record<string, unknown>>(
        `delete from auth.saml_relay_states where id = $1
         returning id, sso_provider_id, request_id, redirect_to, code_challenge, code_challenge_method, created_at`,
        [relayStateId],
      )
    ).rows[0];
    if (!relay) {
      throw new AuthError(
        404,
        'saml_relay_state_not_found',
        'SAML RelayState does not exist, try logging in again?',
      );
    }
    returnTo(relay.redirect_to);
    const createdAt = new Date(relay.created_at);
    if (Date.now() - createdAt.getTime() >= saml.requestTtlMs) {
      throw new AuthError(
        422,
        'saml_relay_state_expired',
        'SAML RelayState has expired. Try logging in again?',
      );
    }
    const provider = await findProvider(services.db, relay.sso_provider_id);
    if (!provider) {
      throw new AuthError(404, 'sso_provider_not_found', 'SSO Identity Provider not found');
    }
    let login;
    try {
      login = await verifySamlResponse(
        {
          entityId: provider.entity_id,
          metadataXml: provider.metadata_xml,
          nameIdFormat: provider.name_id_format,
        },
        serviceProviderFor(services, c),
        envelope,
        samlResponse,
        {
          request: { id: relay.request_id, createdAt },
          clockSkewMs: saml.clockSkewMs,
          requestTtlMs: saml.requestTtlMs,
        },
      );
    } catch (error) {
      if (error instanceof SamlError) {
        throw validation(`SAML Assertion is not valid: ${error.message}`);
      }
      throw error;
    }
    const claims = mapAttributes(login, provider.attribute_mapping);

    const outcome = await services.db.transaction(async (tx) => {
      await tx.query('delete from auth.saml_assertions where expires_at < now()');
      const fresh = await tx.query(
        `insert into auth.saml_assertions (sso_provider_id, assertion_id, expires_at)
         values ($1, $2, $3) on conflict do nothing returning assertion_id`,
        [provider.id, login.assertionId, login.notOnOrAfter],
      );
      if (fresh.rows.length === 0) {
        throw new SsoSignInError(
          'validation_failed',
          'SAML Assertion is not valid: this assertion was already used to sign in (replay)',
        );
      }
      const { userId } = await ssoAccountFor(tx, provider, login, claims);
      const user = await findUserById(tx, userId);
      if (!user || isBanned(user)) throw new SsoSignInError('user_banned', 'User is banned');
      if (relay.code_challenge) {
        const { rows } = await tx.query<{ id: string }>(
          `insert into auth.flow_state (user_id, code_challenge, code_challenge_method, authentication_method, provider)
           values ($1, $2, $3, 'sso/saml', $4) returning id`,
          [
            userId,
            relay.code_challenge,
            relay.code_challenge_method ?? 's256',
            ssoProviderName(provider.id),
          ],
        );
        return { code: await issueAuthCodeFor(tx, rows[0]!.id, userId) };
      }
      return { session: await createSession(services, tx, userId, 'sso/saml', clientInfo(c)) };
    });
    if (outcome.code) {
      return c.redirect(withParams(relay.redirect_to, { code: outcome.code }, 'query'), 302);
    }
    const session = outcome.session!;
    return c.redirect(
      withParams(
        relay.redirect_to,
        {
          access_token: session.access_token,
          expires_at: session.expires_at,
          expires_in: session.expires_in,
          refresh_token: session.refresh_token,
          token_type: 'bearer',
          provider_type: 'sso/saml',
        },
        'hash',
      ),
      302,
    );
  }

  return app;
}
