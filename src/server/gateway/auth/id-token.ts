/**
 * `POST /token?grant_type=id_token` (`signInWithIdToken`, and `linkIdentity` with a token):
 * an ID token the app got from the IdP itself (a native sign-in, Google One Tap) exchanged for
 * a session, against the OIDC provider this deployment has configured. Refusals as GoTrue
 * gives them: OAuth errors for a bad request or token, `provider_disabled` for a provider it
 * knows but this deployment has not enabled.
 */
import type { Context } from 'hono';
import * as jose from 'jose';
import { AuthError, OAuthGrantError, validation, type AuthErrorCode } from '../../auth/errors';
import { IdTokenRejection, type OidcClaims, type OidcProvider } from '../../auth/oidc';
import { createSession, type SessionJson } from '../../auth/sessions';
import type { z } from 'zod';
import type { tokenBody } from './bodies';
import { clientInfo, currentUser, type AuthServices } from './http';
import { accountFor, CallbackError, newAccountsRefusal } from './identities';

type TokenBody = z.output<typeof tokenBody>;

/** Providers GoTrue knows by a fixed issuer; here none is enabled unless it is our OIDC provider. */
const knownIssuers: Record<string, string> = {
  google: 'https://accounts.google.com',
  facebook: 'https://www.facebook.com',
  kakao: 'https://kauth.kakao.com',
  linkedin_oidc: 'https://www.linkedin.com/oauth',
};

/** The issuer an unverified token names, for providers GoTrue detects it from (Apple, Azure). */
function detectedIssuer(idToken: string, label: string): string {
  try {
    const iss = jose.decodeJwt(idToken).iss;
    if (typeof iss === 'string') return iss;
  } catch {
    // Falls through to GoTrue's answer for a token it cannot read.
  }
  throw validation(`Unable to detect issuer in ID token for ${label} provider`);
}

/** Go's %q for the messages GoTrue formats with it. */
const quoted = (text: string) => JSON.stringify(text);

function notEnabled(issuer: string): AuthError {
  return new AuthError(
    400,
    'provider_disabled',
    `Provider (issuer ${quoted(issuer)}) is not enabled`,
  );
}

/** The configured provider the request names, or GoTrue's refusal for the one it named. */
function providerFor(oidc: OidcProvider | undefined, body: TokenBody, idToken: string) {
  const provider = body.provider ?? '';
  const issuer = body.issuer ?? '';
  const clientId = body.client_id ?? '';
  if (oidc && provider && provider === oidc.name) return oidc;
  if (oidc && !provider && issuer && issuer === oidc.issuer && clientId === oidc.clientId)
    return oidc;
  if (provider === 'apple' || issuer.startsWith('https://appleid.apple.com')) {
    const detected = detectedIssuer(idToken, 'Apple');
    if (detected !== 'https://appleid.apple.com' && detected !== 'https://account.apple.com')
      throw validation('Detected ID token issuer is not an Apple ID token issuer');
    throw notEnabled(detected);
  }
  if (provider === 'azure' || issuer.startsWith('https://login.microsoftonline.com/')) {
    const detected = detectedIssuer(idToken, 'Azure');
    if (
      !detected.startsWith('https://login.microsoftonline.com/') &&
      !detected.startsWith('https://sts.windows.net/')
    )
      throw validation('Detected ID token issuer is not an Azure ID token issuer');
    throw notEnabled(detected);
  }
  for (const [name, known] of Object.entries(knownIssuers)) {
    if (provider === name || issuer === known) throw notEnabled(known);
  }
  if (provider === 'keycloak') throw notEnabled('');
  if (provider.startsWith('custom:')) throw validation('Custom OAuth providers are disabled');
  throw validation(`Custom OIDC provider ${quoted(provider)} not allowed`);
}

const callbackStatus: Partial<Record<AuthErrorCode, number>> = {
  signup_disabled: 422,
  email_exists: 422,
  identity_already_exists: 422,
  user_banned: 400,
};

export async function idTokenGrant(
  services: AuthServices,
  oidc: OidcProvider | undefined,
  c: Context,
  body: TokenBody,
): Promise<SessionJson> {
  const idToken = body.id_token;
  if (!idToken) throw new OAuthGrantError('invalid request', 'id_token required');
  if (!body.provider && (!body.client_id || !body.issuer)) {
    throw new OAuthGrantError('invalid request', 'provider or client_id and issuer required');
  }
  let linkUserId: string | null = null;
  if (body.link_identity) {
    const authorization = c.req.header('authorization');
    // supabase-js sends the anon key as the bearer when there is no session.
    const caller = authorization ? await currentUser(services, authorization) : undefined;
    if (!caller) {
      throw new OAuthGrantError(
        'invalid request',
        'Linking requires a valid user access token in Authorization',
      );
    }
    if (!services.config.auth.manualLinking)
      throw new AuthError(404, 'manual_linking_disabled', 'Manual linking is disabled');
    linkUserId = caller.user.row.id;
  }
  const provider = providerFor(oidc, body, idToken);

  let claims: OidcClaims;
  try {
    claims = await provider.verifyIdToken(idToken, body.nonce ?? undefined);
  } catch (error) {
    if (error instanceof IdTokenRejection) throw new OAuthGrantError(error.error, error.message);
    services.gateway.log.error('OIDC discovery failed', { error: (error as Error).message });
    throw new AuthError(500, 'unexpected_failure', 'The identity provider could not be reached');
  }

  const client = clientInfo(c);
  try {
    return await services.db.transaction(async (tx) => {
      const userId = await accountFor(
        tx,
        provider.name,
        claims,
        linkUserId,
        newAccountsRefusal(services),
      );
      return createSession(services, tx, userId, 'oauth', client);
    });
  } catch (error) {
    if (error instanceof CallbackError) {
      throw new AuthError(callbackStatus[error.code] ?? 400, error.code, error.message);
    }
    throw error;
  }
}
