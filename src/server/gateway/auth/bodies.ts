/**
 * The JSON bodies supabase-js sends to /auth/v1, checked with zod (decision 0026). As GoTrue's
 * JSON decoding does, the schemas check types only: a wrong type is 400 `bad_json`; a missing
 * or invalid value keeps GoTrue's own code and message (`validation_failed`,
 * `email_address_invalid`, `weak_password`, …), checked by hand in the handlers, because
 * supabase-js turns those codes into its error classes. Unknown fields pass, as in GoTrue;
 * null reads as absent.
 */
import type { Context } from 'hono';
import { z } from 'zod';
import { AuthError } from '../../auth/errors';
import { checkJson, type BodyRejection } from '../ops/valid-json';

/** Auth bodies are small forms; GoTrue refuses far smaller ones than this too. */
export const MAX_AUTH_BODY_BYTES = 64 * 1024;

function refuse(rejection: BodyRejection): never {
  if (rejection.problem === 'too_large')
    throw new AuthError(413, 'validation_failed', rejection.message);
  if (rejection.problem === 'not_json')
    throw new AuthError(400, 'bad_json', 'Could not parse request body as JSON');
  throw new AuthError(
    400,
    'bad_json',
    `Could not parse request body as JSON: ${rejection.message}`,
  );
}

/**
 * The checked body. Read inside the handler, not as route middleware: the auth rate limits
 * count a request before its body is read, malformed or not.
 */
export async function authJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const checked = await checkJson(c.req.raw, MAX_AUTH_BODY_BYTES, schema);
  if (!checked.ok) refuse(checked.rejection);
  return checked.data;
}

const text = z.string().nullish();
const object = z.record(z.string(), z.unknown()).nullish();
const pkce = { code_challenge: text, code_challenge_method: text };

export const signupBody = z.looseObject({
  email: text,
  password: text,
  phone: text,
  data: object,
  ...pkce,
});

export type SignupBody = z.output<typeof signupBody>;

export const verifyBody = z.looseObject({
  type: text,
  token_hash: text,
  email: text,
  token: text,
  phone: text,
});

export const recoverBody = z.looseObject({ email: text, ...pkce });

export const otpBody = z.looseObject({
  email: text,
  phone: text,
  channel: text,
  create_user: z.boolean().nullish(),
  data: object,
  ...pkce,
});

export type OtpBody = z.output<typeof otpBody>;

export const resendBody = z.looseObject({ type: text, email: text, phone: text, options: object });

export const tokenBody = z.looseObject({
  email: text,
  password: text,
  phone: text,
  refresh_token: text,
  auth_code: text,
  code_verifier: text,
  id_token: text,
  access_token: text,
  nonce: text,
  provider: text,
  client_id: text,
  issuer: text,
  link_identity: z.boolean().nullish(),
});

export const updateUserBody = z.looseObject({
  email: text,
  password: text,
  phone: text,
  nonce: text,
  data: object,
  ...pkce,
});

export const enrollFactorBody = z.looseObject({
  factor_type: text,
  friendly_name: text,
  issuer: text,
  phone: text,
});

export const verifyFactorBody = z.looseObject({ challenge_id: text, code: text });

export const challengeFactorBody = z.looseObject({ channel: text });

export const adminUserBody = z.looseObject({
  email: text,
  password: text,
  email_confirm: z.boolean().nullish(),
  user_metadata: object,
  app_metadata: object,
  data: object,
  ban_duration: text,
});

export const inviteBody = z.looseObject({ email: text, redirect_to: text, data: object });

export const generateLinkBody = z.looseObject({
  type: text,
  email: text,
  new_email: text,
  password: text,
  data: object,
  redirect_to: text,
});
