/**
 * WebAuthn ceremonies with @simplewebauthn/server, for MFA factors and passkeys: options to
 * hand the browser, and checks of what it returns against the relying party of the config
 * (never the client's own claim of rpId or origins). Results are plain data; callers store
 * them. Every refusal is an AuthError in GoTrue's shape.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { brand } from '../../common/brand';
import type { Config } from '../config';
import { AuthError } from './errors';

/** Where ceremonies are accepted: the config's relying party, or this loopback page's own. */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function relyingParty(config: Pick<Config, 'auth'>, requestUrl: string): RelyingParty {
  const settings = config.auth.webauthn;
  const own = new URL(requestUrl);
  const origins =
    settings.origins.length > 0
      ? settings.origins
      : loopbackHosts.has(own.hostname)
        ? [own.origin]
        : [];
  return { id: settings.rpId, name: settings.rpName ?? brand.product, origins };
}

/** A verified credential as stored: nothing secret, all base64url. */
export interface StoredCredential {
  id: string;
  public_key: string;
  counter: number;
  transports: string[];
  backed_up: boolean;
  device_type: string;
}

/** What a challenge must remember to check the answer. */
export interface CeremonyState {
  type: 'create' | 'request';
  challenge: string;
}

export async function registrationOptions(
  rp: RelyingParty,
  user: { id: string; name: string },
  exclude: StoredCredential[],
  residentKey: 'required' | 'preferred' | 'discouraged',
) {
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userID: new TextEncoder().encode(user.id),
    userName: user.name,
    userDisplayName: user.name,
    attestationType: 'none',
    excludeCredentials: exclude.map((c) => ({ id: c.id, transports: c.transports })),
    authenticatorSelection: { residentKey, userVerification: 'preferred' },
  });
}

export async function authenticationOptions(rp: RelyingParty, allow: StoredCredential[]) {
  return generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: allow.map((c) => ({ id: c.id, transports: c.transports })),
    userVerification: 'preferred',
  });
}

function failed(
  code: 'webauthn_verification_failed' | 'mfa_verification_failed',
  message: string,
): AuthError {
  return new AuthError(code === 'mfa_verification_failed' ? 422 : 400, code, message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The browser's answer as the library reads it, or undefined when it cannot be one. */
function registrationJson(value: unknown): RegistrationResponseJSON | undefined {
  if (!isObject(value) || !isObject(value.response)) return undefined;
  if (typeof value.id !== 'string' || typeof value.rawId !== 'string') return undefined;
  if (typeof value.response.attestationObject !== 'string') return undefined;
  if (typeof value.response.clientDataJSON !== 'string') return undefined;
  return { clientExtensionResults: {}, ...value } as unknown as RegistrationResponseJSON;
}

function assertionJson(value: unknown): AuthenticationResponseJSON | undefined {
  if (!isObject(value) || !isObject(value.response)) return undefined;
  if (typeof value.id !== 'string' || typeof value.rawId !== 'string') return undefined;
  const r = value.response;
  if (typeof r.authenticatorData !== 'string' || typeof r.clientDataJSON !== 'string') {
    return undefined;
  }
  if (typeof r.signature !== 'string') return undefined;
  return { clientExtensionResults: {}, ...value } as unknown as AuthenticationResponseJSON;
}

/** The id of the credential an assertion names, and the user handle it carries. */
export function assertionIds(value: unknown): { id: string; userHandle?: string } | undefined {
  const json = assertionJson(value);
  if (!json) return undefined;
  const handle = json.response.userHandle;
  return {
    id: json.id,
    userHandle: handle ? new TextDecoder().decode(isoBase64URL.toBuffer(handle)) : undefined,
  };
}

/**
 * Checks a registration against the challenge, the relying party and its origins; returns the
 * credential to store. `code` is the refusal's code: GoTrue's MFA answers 422
 * mfa_verification_failed, its passkey API 400 webauthn_verification_failed.
 */
export async function checkRegistration(
  rp: RelyingParty,
  state: CeremonyState,
  response: unknown,
  code: 'webauthn_verification_failed' | 'mfa_verification_failed',
): Promise<{ credential: StoredCredential; aaguid: string }> {
  const json = registrationJson(response);
  if (!json) throw failed(code, 'Invalid credential response');
  let result;
  try {
    result = await verifyRegistrationResponse({
      response: json,
      expectedChallenge: state.challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch (error) {
    throw failed(code, `Credential verification failed: ${(error as Error).message}`);
  }
  if (!result.verified) throw failed(code, 'Credential verification failed');
  const info = result.registrationInfo;
  return {
    credential: {
      id: info.credential.id,
      public_key: isoBase64URL.fromBuffer(info.credential.publicKey),
      counter: info.credential.counter,
      transports: info.credential.transports ?? [],
      backed_up: info.credentialBackedUp,
      device_type: info.credentialDeviceType,
    },
    aaguid: info.aaguid,
  };
}

/** Checks an assertion by `stored`; returns the new signature counter. */
export async function checkAssertion(
  rp: RelyingParty,
  state: CeremonyState,
  stored: StoredCredential,
  response: unknown,
  code: 'webauthn_verification_failed' | 'mfa_verification_failed',
): Promise<number> {
  const json = assertionJson(response);
  if (!json) throw failed(code, 'Invalid credential response');
  if (json.id !== stored.id)
    throw failed(code, 'Credential verification failed: unknown credential');
  let result;
  try {
    result = await verifyAuthenticationResponse({
      response: json,
      expectedChallenge: state.challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      credential: {
        id: stored.id,
        publicKey: isoBase64URL.toBuffer(stored.public_key),
        counter: stored.counter,
        transports: stored.transports,
      },
      requireUserVerification: false,
    });
  } catch (error) {
    throw failed(code, `Credential verification failed: ${(error as Error).message}`);
  }
  if (!result.verified) throw failed(code, 'Credential verification failed');
  return result.authenticationInfo.newCounter;
}
