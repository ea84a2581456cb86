/**
 * The generic OIDC provider configured by environment (issuer, client id and secret), with
 * openid-client: discovery once, authorization code + PKCE + nonce towards the IdP.
 */
import * as client from 'openid-client';
import type { Config } from '../config';

export interface OidcProvider {
  name: string;
  /** The IdP's authorization URL for one round trip. */
  authorizationUrl(input: {
    redirectUri: string;
    state: string;
    codeVerifier: string;
    nonce: string;
    scopes?: string;
  }): Promise<string>;
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

  return {
    name: settings.name,
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
      return {
        sub: idClaims.sub,
        email: typeof claims.email === 'string' ? claims.email.toLowerCase() : undefined,
        emailVerified: claims.email_verified === true || claims.email_verified === 'true',
        name: typeof claims.name === 'string' ? claims.name : undefined,
        picture: typeof claims.picture === 'string' ? claims.picture : undefined,
        raw: claims,
      };
    },
  };
}

export function newOidcSecrets() {
  return { codeVerifier: client.randomPKCECodeVerifier(), nonce: client.randomNonce() };
}
