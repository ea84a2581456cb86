/**
 * The generic OIDC provider configured by environment (issuer, client id and secret), with
 * openid-client: discovery once, authorization code + PKCE + nonce towards the IdP.
 */
import { createHash } from 'node:crypto';
import * as jose from 'jose';
import * as client from 'openid-client';
import type { Config } from '../config';

export interface OidcProvider {
  name: string;
  /** The configured issuer and our client id at it (an ID token's required audience). */
  issuer: string;
  clientId: string;
  /** The IdP's authorization URL for one round trip. */
  authorizationUrl(input: {
    redirectUri: string;
    state: string;
    codeVerifier: string;
    nonce: string;
    scopes?: string;
  }): Promise<string>;
  /**
   * Verifies an ID token the client got from the IdP itself (`grant_type=id_token`): the
   * signature against the IdP's published keys, issuer, expiry, our client id among its
   * audiences and the nonce; resolves to the claims, or rejects with an `IdTokenRejection`.
   */
  verifyIdToken(idToken: string, nonce: string | undefined): Promise<OidcClaims>;
  /** Exchanges the callback for the IdP's verified claims about the user. */
  callback(input: {
    callbackUrl: URL;
    state: string;
    codeVerifier: string;
    nonce: string;
  }): Promise<OidcClaims>;
}

export interface OidcClaims {
  sub: string;
  email?: string;
  emailVerified: boolean;
  name?: string;
  picture?: string;
  raw: Record<string, unknown>;
}

/** Why an ID token was refused, in GoTrue's OAuth error terms (`error`, `error_description`). */
export class IdTokenRejection extends Error {
  constructor(
    public readonly error: 'invalid request' | 'invalid nonce',
    description: string,
  ) {
    super(description);
  }
}

function claimsFrom(raw: Record<string, unknown>, sub: string): OidcClaims {
  return {
    sub,
    email: typeof raw.email === 'string' ? raw.email.toLowerCase() : undefined,
    emailVerified: raw.email_verified === true || raw.email_verified === 'true',
    name: typeof raw.name === 'string' ? raw.name : undefined,
    picture: typeof raw.picture === 'string' ? raw.picture : undefined,
    raw,
  };
}

/**
 * GoTrue's nonce rule: the client sends the raw nonce and the IdP signed its SHA-256 (hex), so
 * a token caught on its way cannot be replayed by someone who does not hold the raw value.
 * Both present or both absent; anything else is refused.
 */
export function checkIdTokenNonce(tokenNonce: unknown, sent: string | undefined): void {
  const inToken = typeof tokenNonce === 'string' && tokenNonce !== '';
  const inRequest = sent !== undefined && sent !== '';
  if (inToken !== inRequest) {
    throw new IdTokenRejection(
      'invalid request',
      'Passed nonce and nonce in id_token should either both exist or not.',
    );
  }
  if (inToken && createHash('sha256').update(sent!).digest('hex') !== tokenNonce) {
    throw new IdTokenRejection('invalid nonce', 'Nonces mismatch');
  }
}

function isLoopback(url: URL): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

export function createOidcProvider(config: Config): OidcProvider | undefined {
  const settings = config.auth.oidc;
  if (!settings) return undefined;
  const issuer = new URL(settings.issuer);
  // Plain HTTP only to a loopback IdP (tests, local development), never to the network.
  const insecure = issuer.protocol === 'http:' && isLoopback(issuer);
  let discovered: Promise<client.Configuration> | undefined;

  function configuration(): Promise<client.Configuration> {
    discovered ??= client
      .discovery(
        issuer,
        settings!.clientId,
        settings!.clientSecret,
        undefined,
        insecure ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        discovered = undefined;
        throw error;
      });
    return discovered;
  }

  let keySet: { uri: string; keys: ReturnType<typeof jose.createRemoteJWKSet> } | undefined;

  /** The IdP's signing keys from its `jwks_uri`, refetched by jose when a new `kid` appears. */
  function signingKeys(oidc: client.Configuration) {
    const uri = oidc.serverMetadata().jwks_uri;
    if (!uri) throw new Error('The identity provider publishes no jwks_uri');
    if (keySet?.uri !== uri) keySet = { uri, keys: jose.createRemoteJWKSet(new URL(uri)) };
    return keySet.keys;
  }

  return {
    name: settings.name,
    issuer: settings.issuer,
    clientId: settings.clientId,
    async verifyIdToken(idToken, nonce) {
      const oidc = await configuration();
      let payload: jose.JWTPayload;
      try {
        ({ payload } = await jose.jwtVerify(idToken, signingKeys(oidc), {
          issuer: oidc.serverMetadata().issuer,
          algorithms: ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'],
        }));
      } catch {
        throw new IdTokenRejection('invalid request', 'Bad ID token');
      }
      if (typeof payload.sub !== 'string' || payload.sub === '') {
        throw new IdTokenRejection('invalid request', 'Missing sub claim in id_token');
      }
      const audiences = typeof payload.aud === 'string' ? [payload.aud] : (payload.aud ?? []);
      if (!audiences.includes(settings!.clientId)) {
        throw new IdTokenRejection(
          'invalid request',
          `Unacceptable audience in id_token: [${audiences.join(' ')}]`,
        );
      }
      checkIdTokenNonce(payload.nonce, nonce);
      return claimsFrom(payload as Record<string, unknown>, payload.sub);
    },
    async authorizationUrl({ redirectUri, state, codeVerifier, nonce, scopes }) {
      const oidc = await configuration();
      const requested = new Set(['openid', 'email', 'profile', ...(scopes ?? '').split(/[\s,]+/)]);
      requested.delete('');
      return client
        .buildAuthorizationUrl(oidc, {
          redirect_uri: redirectUri,
          scope: [...requested].join(' '),
          state,
          nonce,
          code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
          code_challenge_method: 'S256',
        })
        .toString();
    },
    async callback({ callbackUrl, state, codeVerifier, nonce }) {
      const oidc = await configuration();
      const tokens = await client.authorizationCodeGrant(oidc, callbackUrl, {
        pkceCodeVerifier: codeVerifier,
        expectedState: state,
        expectedNonce: nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims()!;
      let claims: Record<string, unknown> = { ...idClaims };
      if (!claims.email && tokens.access_token) {
        const info = await client.fetchUserInfo(oidc, tokens.access_token, idClaims.sub);
        claims = { ...info, ...claims };
      }
      return claimsFrom(claims, idClaims.sub);
    },
  };
}

export function newOidcSecrets() {
  return { codeVerifier: client.randomPKCECodeVerifier(), nonce: client.randomNonce() };
}
