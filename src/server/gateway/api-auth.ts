/**
 * Verifying the caller, the one way REST, storage and functions do it. Supabase clients send
 * the API key in `apikey` and a bearer token (the user's session token, or the API key again).
 * The bearer wins; with no bearer the API key's own role is used. Each service maps a
 * `CallerError` to its own wire format.
 */
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { JwtClaims } from '../db/types';
import type { TokenVerifier } from '../keys/verify';
import { TokenError } from '../keys/verify';
import type { ApiEnv } from './context';
import { invalidJwt, noApiKey } from './rest/errors';
import { errorResponse } from './rest/wire';

export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match?.[1]?.trim();
}

export class CallerError extends Error {
  constructor(
    /** missing: no token at all; invalid: a token that is not ours, or expired. */
    public readonly reason: 'missing' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'CallerError';
  }
}

export interface Caller {
  claims: JwtClaims;
  /** The token the request runs as (never logged). */
  token: string;
  /** The API key it presented, for per-key rate limiting. */
  apiKey: string;
}

const anonymous: Caller = { claims: { role: 'anon' }, token: '', apiKey: '' };

/**
 * Verifies the token, and the API key when it is a different one, and records the caller on
 * the context. `public`: a request without a valid token runs as anon instead of failing.
 */
export async function identifyCaller(
  c: Context<ApiEnv>,
  verifier: TokenVerifier,
  options: { public?: boolean } = {},
): Promise<Caller> {
  const apiKey = c.req.header('apikey')?.trim() || undefined;
  const token = bearerToken(c.req.header('authorization')) ?? apiKey;
  let caller: Caller;
  if (!token) {
    if (!options.public) throw new CallerError('missing', 'No API key found in request');
    caller = anonymous;
  } else {
    try {
      const claims = await verifier.verify(token);
      if (apiKey && apiKey !== token) await verifier.verify(apiKey);
      caller = { claims, token, apiKey: apiKey ?? token };
    } catch (error) {
      if (options.public) caller = anonymous;
      else if (error instanceof TokenError) throw new CallerError('invalid', error.message);
      else throw error;
    }
  }
  c.set('claims', caller.claims);
  c.set('role', caller.claims.role);
  c.set('token', caller.token);
  c.set('apiKey', caller.apiKey);
  return caller;
}

/** REST: every request needs a valid key or token, answered in PostgREST's shape. */
export function apiAuth(verifier: TokenVerifier) {
  return createMiddleware<ApiEnv>(async (c, next) => {
    try {
      await identifyCaller(c, verifier);
    } catch (error) {
      if (!(error instanceof CallerError)) throw error;
      const rest = error.reason === 'missing' ? noApiKey() : invalidJwt(error.message);
      return errorResponse(c, rest);
    }
    return next();
  });
}
