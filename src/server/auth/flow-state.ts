/**
 * PKCE flow state: a flow (sign-up confirmation, recovery, OIDC) started with a code
 * challenge ends in a one-time auth code that `grant_type=pkce` exchanges for a session.
 */
import type { Queryable } from '../db/types';
import { pkceChallenge, randomToken, safeEqual } from './crypto';
import { AuthError } from './errors';

/** How long an issued auth code may wait for its exchange (GoTrue uses 5 minutes). */
export const AUTH_CODE_TTL_MS = 5 * 60 * 1000;

export type FlowMethod =
  'email/signup' | 'magiclink' | 'recovery' | 'email_change' | 'oauth' | 'sso/saml';

export async function saveFlowState(
  tx: Queryable,
  userId: string,
  method: FlowMethod,
  pkce: { challenge: string; method: string },
): Promise<void> {
  // One pending flow per user and method: a newer request replaces the older one.
  await tx.query(
    'delete from auth.flow_state where user_id = $1 and authentication_method = $2 and auth_code_issued_at is null',
    [userId, method],
  );
  await tx.query(
    `insert into auth.flow_state (user_id, code_challenge, code_challenge_method, authentication_method)
     values ($1, $2, $3, $4)`,
    [userId, pkce.challenge, pkce.method, method],
  );
}

/** Turns the user's pending flow for `method` into an auth code; undefined without one. */
export async function issueAuthCode(
  tx: Queryable,
  userId: string,
  method: FlowMethod,
): Promise<string | undefined> {
  const code = randomToken(24);
  const { rows } = await tx.query<{ id: string }>(
    `update auth.flow_state set auth_code = $3, auth_code_issued_at = now()
     where id = (select id from auth.flow_state
                 where user_id = $1 and authentication_method = $2 and auth_code_issued_at is null
                 order by created_at desc limit 1)
     returning id`,
    [userId, method, code],
  );
  return rows[0] ? code : undefined;
}

/** Issues an auth code on an existing flow row (the OIDC callback knows its row). */
export async function issueAuthCodeFor(
  tx: Queryable,
  flowId: string,
  userId: string,
): Promise<string> {
  const code = randomToken(24);
  await tx.query(
    'update auth.flow_state set auth_code = $2, auth_code_issued_at = now(), user_id = $3 where id = $1',
    [flowId, code, userId],
  );
  return code;
}

export async function exchangeAuthCode(
  tx: Queryable,
  authCode: unknown,
  verifier: unknown,
): Promise<{ userId: string; method: FlowMethod }> {
  if (
    typeof authCode !== 'string' ||
    authCode === '' ||
    typeof verifier !== 'string' ||
    verifier === ''
  ) {
    throw new AuthError(
      400,
      'validation_failed',
      'invalid request: both auth code and code verifier should be non-empty',
    );
  }
  const { rows } = await tx.query<{
    id: string;
    user_id: string | null;
    code_challenge: string | null;
    code_challenge_method: string | null;
    authentication_method: FlowMethod;
    auth_code_issued_at: Date;
  }>(
    'delete from auth.flow_state where auth_code = $1 returning id, user_id, code_challenge, code_challenge_method, authentication_method, auth_code_issued_at',
    [authCode],
  );
  const flow = rows[0];
  if (!flow || !flow.user_id || !flow.code_challenge) {
    throw new AuthError(
      404,
      'flow_state_not_found',
      'invalid flow state, no valid flow state found',
    );
  }
  if (Date.now() - new Date(flow.auth_code_issued_at).getTime() > AUTH_CODE_TTL_MS) {
    throw new AuthError(403, 'flow_state_expired', 'invalid flow state, flow state has expired');
  }
  const expected = flow.code_challenge_method === 'plain' ? verifier : pkceChallenge(verifier);
  if (!safeEqual(expected, flow.code_challenge)) {
    throw new AuthError(
      403,
      'bad_code_verifier',
      'code challenge does not match previously saved code verifier',
    );
  }
  return { userId: flow.user_id, method: flow.authentication_method };
}
