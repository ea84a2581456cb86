/**
 * `POST /signup`, `GET|POST /verify`, `POST /recover`, `POST /resend`: accounts and the mailed
 * links and codes that confirm them.
 */
import { Hono } from 'hono';
import { randomUUID } from 'node:crypto';
import {
  applyEmailChange,
  composeAuthMail,
  confirmEmail,
  createAnonymousUser,
  createUser,
} from '../../auth/accounts';
import { AuthError, validation } from '../../auth/errors';
import { issueAuthCode, saveFlowState, type FlowMethod } from '../../auth/flow-state';
import type { MailMessage } from '../../auth/mail';
import {
  consumeOneTimeToken,
  type ConsumedToken,
  issueOneTimeToken,
  type OneTimeTokenType,
  type TokenProof,
} from '../../auth/one-time-tokens';
import { checkPasswordStrength, hashPassword } from '../../auth/passwords';
import { applyPhoneChange, confirmPhone, createPhoneUser, findUserByPhone } from '../../auth/phone';
import { checkCoupon, redeemCoupon } from '../../billing/coupons';
import { createSession, type SessionJson } from '../../auth/sessions';
import {
  findUserByEmail,
  loadUser,
  normalizeEmail,
  userJson,
  type UserRow,
} from '../../auth/users';
import type { Queryable } from '../../db/types';
import { couponForSignUp, refusingCoupons } from './coupon-gate';
import { phoneFrom, requirePhoneProvider, textCode } from './phone';
import {
  authJson,
  recoverBody,
  resendBody,
  signupBody,
  verifyBody,
  type SignupBody,
} from './bodies';
import {
  authBaseUrl,
  clientInfo,
  optionalObject,
  optionalString,
  pkceParams,
  safeRedirect,
  withParams,
  type AuthContext,
  type AuthEnv,
  type AuthServices,
} from './http';

/** The verify types supabase-js sends, and the stored token purpose each one consumes. */
const verifyTypes: Record<string, { tokens: OneTimeTokenType[]; flow: FlowMethod; amr: string }> = {
  signup: { tokens: ['confirmation'], flow: 'email/signup', amr: 'otp' },
  // An emailed code is either a sign-up's confirmation or a magic link's (GoTrue's recovery
  // token): `verifyOtp({ email, token, type: 'email' })` takes both.
  email: { tokens: ['confirmation', 'recovery'], flow: 'email/signup', amr: 'otp' },
  magiclink: { tokens: ['recovery'], flow: 'magiclink', amr: 'otp' },
  invite: { tokens: ['confirmation'], flow: 'email/signup', amr: 'otp' },
  recovery: { tokens: ['recovery'], flow: 'recovery', amr: 'recovery' },
  email_change: { tokens: ['email_change'], flow: 'email_change', amr: 'otp' },
  sms: { tokens: ['sms'], flow: 'email/signup', amr: 'otp' },
  phone_change: { tokens: ['phone_change'], flow: 'email_change', amr: 'otp' },
};

/** Types whose code was texted: verified with `phone`, never by a mailed link. */
const phoneTypes = new Set(['sms', 'phone_change']);

export function verifyLink(
  base: string,
  tokenHash: string,
  type: string,
  redirectTo: string,
): string {
  const params = new URLSearchParams({ token: tokenHash, type, redirect_to: redirectTo });
  return `${base}/verify?${params.toString()}`;
}

const linkKinds = {
  signup: { token: 'confirmation', flow: 'email/signup', sentAt: 'confirmation_sent_at' },
  recovery: { token: 'recovery', flow: 'recovery', sentAt: 'recovery_sent_at' },
  // A magic link is GoTrue's recovery token under another name.
  magiclink: { token: 'recovery', flow: 'magiclink', sentAt: 'recovery_sent_at' },
} as const satisfies Record<
  string,
  { token: OneTimeTokenType; flow: FlowMethod; sentAt: 'confirmation_sent_at' | 'recovery_sent_at' }
>;

export type LinkKind = keyof typeof linkKinds;

/**
 * Issues the token behind a mailed link and code of this kind, saves the PKCE flow it ends in
 * (if the client started one) and stamps when it was sent.
 */
export async function issueLinkToken(
  tx: Queryable,
  userId: string,
  email: string,
  kind: LinkKind,
  pkce?: { challenge: string; method: string },
): Promise<{ tokenHash: string; code: string }> {
  const { token, flow, sentAt } = linkKinds[kind];
  const issued = await issueOneTimeToken(tx, userId, token, email);
  if (pkce) await saveFlowState(tx, userId, flow, pkce);
  await tx.query(`update auth.users set ${sentAt} = now() where id = $1`, [userId]);
  return issued;
}

/** `issueLinkToken`, and the mail that carries the link (to `redirectTo`) and the code. */
export async function mailedLink(
  tx: Queryable,
  input: {
    userId: string;
    email: string;
    kind: LinkKind;
    pkce?: { challenge: string; method: string };
    base: string;
    redirectTo: string;
  },
): Promise<MailMessage> {
  const { userId, email, kind, pkce, base, redirectTo } = input;
  const { tokenHash, code } = await issueLinkToken(tx, userId, email, kind, pkce);
  const mail = kind === 'signup' ? 'confirmation' : kind;
  return composeAuthMail(mail, email, code, verifyLink(base, tokenHash, kind, redirectTo));
}

/**
 * Posts mail after the transaction that issued its token has committed, without waiting for
 * the mail server: these answers must not be slower for addresses that have an account. The
 * mail limit counts with or without a message, or running into it would tell the same.
 */
export async function deliver(
  services: AuthServices,
  ip: string,
  message: MailMessage | undefined,
) {
  services.limits.hit('email', ip);
  if (!message) return;
  await services.mailer.post(message);
}

async function applyToken(tx: Queryable, consumed: ConsumedToken): Promise<void> {
  if (consumed.type === 'sms') await confirmPhone(tx, consumed.userId, consumed.relatesTo);
  else if (consumed.type === 'phone_change')
    await applyPhoneChange(tx, consumed.userId, consumed.relatesTo);
  else if (consumed.type === 'email_change')
    await applyEmailChange(tx, consumed.userId, consumed.relatesTo);
  // A recovery link proves the mailbox as well as a confirmation link does.
  else await confirmEmail(tx, consumed.userId);
}

export function signupRoutes(services: AuthServices) {
  const app = new Hono<AuthEnv>();

  /**
   * `signInAnonymously()`: an account with no address and `is_anonymous` set, signed in at
   * once. It counts as a sign-up (the sign-up limit, the beta gate's coupon, disabled
   * sign-ups) and against its own hourly limit, as GoTrue's anonymous sign-ins do.
   */
  async function signInAnonymously(c: AuthContext, body: SignupBody): Promise<SessionJson> {
    const client = clientInfo(c);
    if (!services.config.auth.anonymousUsers)
      throw new AuthError(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
    services.limits.hit('anonymous', client.ip);
    if (services.config.auth.disableSignup)
      throw new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance');
    const { coupon, metadata } = couponForSignUp(services, client.ip, optionalObject(body, 'data'));
    if (coupon) await refusingCoupons(() => checkCoupon(services.db, coupon));
    return refusingCoupons(() =>
      services.db.transaction(async (tx) => {
        const user = await createAnonymousUser(tx, metadata);
        if (coupon) await redeemCoupon(tx, coupon, user.id, 'sign_up');
        return createSession(services, tx, user.id, 'anonymous', client);
      }),
    );
  }

  /**
   * `signUp({ phone, password })`: an unconfirmed account and a texted code, confirmed with
   * `verifyOtp({ phone, token, type: 'sms' })`. A number with a confirmed account gets the
   * same answer and no text, so the form cannot tell who has an account.
   */
  async function signUpWithPhone(c: AuthContext, body: SignupBody): Promise<unknown> {
    const client = clientInfo(c);
    requirePhoneProvider(services, 400, 'Phone signups are disabled');
    const phone = phoneFrom(body.phone);
    if (services.config.auth.disableSignup)
      throw new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance');
    checkPasswordStrength(body.password, services.config.auth.passwordMinLength);
    const { coupon, metadata } = couponForSignUp(services, client.ip, optionalObject(body, 'data'));
    if (coupon) await refusingCoupons(() => checkCoupon(services.db, coupon));
    const passwordHash = await hashPassword(body.password!);
    const user = await refusingCoupons(() =>
      services.db.transaction(async (tx) => {
        const existing = await findUserByPhone(tx, phone);
        if (existing?.phone_confirmed_at) {
          if (coupon) await checkCoupon(tx, coupon);
          return undefined;
        }
        if (existing) {
          await tx.query(
            'update auth.users set encrypted_password = $2, raw_user_meta_data = $3, updated_at = now() where id = $1',
            [existing.id, passwordHash, JSON.stringify(metadata)],
          );
          return existing;
        }
        const created = await createPhoneUser(tx, { phone, passwordHash, userMetadata: metadata });
        if (coupon) await redeemCoupon(tx, coupon, created.id, 'sign_up');
        return created;
      }),
    );
    if (!user) {
      services.limits.hit('sms', client.ip);
      const now = new Date().toISOString();
      return {
        id: randomUUID(),
        aud: 'authenticated',
        role: 'authenticated',
        email: '',
        phone,
        confirmation_sent_at: now,
        app_metadata: { provider: 'phone', providers: ['phone'] },
        user_metadata: metadata,
        identities: [],
        created_at: now,
        updated_at: now,
        is_anonymous: false,
      };
    }
    await textCode(services, client.ip, user, phone, 'sms');
    return userJson((await loadUser(services.db, user.id))!);
  }

  app.post('/signup', async (c) => {
    const client = clientInfo(c);
    services.limits.hit('sign_up', client.ip);
    const body = await authJson(c, signupBody);
    // GoTrue's rule: a sign-up naming neither an email nor a phone is an anonymous sign-in.
    if (!body.email && !body.phone) return c.json(await signInAnonymously(c, body));
    // An email, when both are sent, decides the provider (GoTrue's order).
    if (!body.email) return c.json(await signUpWithPhone(c, body));
    const email = normalizeEmail(body.email);
    if (!email) {
      throw new AuthError(
        400,
        'email_address_invalid',
        `Email address "${String(body.email)}" is invalid`,
      );
    }
    const password = body.password;
    if (services.config.auth.disableSignup)
      throw new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance');
    checkPasswordStrength(password, services.config.auth.passwordMinLength);
    const { coupon, metadata } = couponForSignUp(services, client.ip, optionalObject(body, 'data'));
    const pkce = pkceParams(body);
    const redirectTo = safeRedirect(services, c, c.req.query('redirect_to'));
    const autoconfirm = services.config.auth.autoconfirm;
    // A code that cannot be redeemed is refused before the password is hashed (the costly
    // part); the redemption in the transaction below is what counts.
    if (coupon) await refusingCoupons(() => checkCoupon(services.db, coupon));
    const passwordHash = await hashPassword(password);

    const result = await refusingCoupons(() =>
      services.db.transaction(
        async (tx): Promise<{ session?: SessionJson; user?: unknown; mail?: MailMessage }> => {
          const existing = await findUserByEmail(tx, email);
          if (existing?.email_confirmed_at) {
            // Refused the same way as for a new address: the answer must not tell who signed up.
            if (coupon) await checkCoupon(tx, coupon);
            if (autoconfirm) {
              throw new AuthError(422, 'user_already_exists', 'User already registered');
            }
            // Same answer as a new sign-up, so the form cannot tell who has an account.
            const now = new Date().toISOString();
            return {
              user: {
                id: randomUUID(),
                aud: 'authenticated',
                role: 'authenticated',
                email,
                phone: '',
                confirmation_sent_at: now,
                app_metadata: { provider: 'email', providers: ['email'] },
                user_metadata: metadata,
                identities: [],
                created_at: now,
                updated_at: now,
                is_anonymous: false,
              },
            };
          }
          let userId: string;
          if (existing) {
            await tx.query(
              'update auth.users set encrypted_password = $2, raw_user_meta_data = $3, updated_at = now() where id = $1',
              [existing.id, passwordHash, JSON.stringify(metadata)],
            );
            userId = existing.id;
          } else {
            const created = await createUser(tx, {
              email,
              passwordHash,
              userMetadata: metadata,
              confirmed: autoconfirm,
            });
            userId = created.id;
          }
          if (coupon) await redeemCoupon(tx, coupon, userId, 'sign_up');
          if (autoconfirm) {
            return { session: await createSession(services, tx, userId, 'password', client) };
          }
          const mail = await mailedLink(tx, {
            userId,
            email,
            kind: 'signup',
            pkce,
            base: authBaseUrl(services, c),
            redirectTo,
          });
          const user = await loadUser(tx, userId);
          return { user: userJson(user!), mail };
        },
      ),
    );
    await deliver(services, client.ip, result.mail);
    return c.json(result.session ?? result.user);
  });

  app.get('/verify', async (c) => {
    const type = c.req.query('type') ?? '';
    const token = c.req.query('token') ?? '';
    const redirectTo = safeRedirect(services, c, c.req.query('redirect_to'));
    const kind = verifyTypes[type];
    const fail = (code: string, description: string) =>
      c.redirect(
        withParams(
          redirectTo,
          { error: 'access_denied', error_code: code, error_description: description },
          'hash',
        ),
        303,
      );
    if (!kind || phoneTypes.has(type) || token === '')
      return fail('validation_failed', 'Verify requires a token and a valid type');
    try {
      services.limits.hit('verify', clientInfo(c).ip);
    } catch {
      return fail(
        'over_request_rate_limit',
        'Too many verification attempts. Try again in a few minutes.',
      );
    }
    const outcome = await services.db.transaction(async (tx) => {
      const consumed = await consumeOneTimeToken(tx, kind.tokens, { link: token });
      if (!consumed) return undefined;
      await applyToken(tx, consumed);
      const code = await issueAuthCode(tx, consumed.userId, kind.flow);
      if (code) return { code };
      return {
        session: await createSession(services, tx, consumed.userId, kind.amr, clientInfo(c)),
      };
    });
    if (!outcome) return fail('otp_expired', 'Email link is invalid or has expired');
    if (outcome.code)
      return c.redirect(withParams(redirectTo, { code: outcome.code }, 'query'), 303);
    const session = outcome.session!;
    return c.redirect(
      withParams(
        redirectTo,
        {
          access_token: session.access_token,
          expires_at: session.expires_at,
          expires_in: session.expires_in,
          refresh_token: session.refresh_token,
          token_type: 'bearer',
          type,
        },
        'hash',
      ),
      303,
    );
  });

  app.post('/verify', async (c) => {
    const client = clientInfo(c);
    services.limits.hit('verify', client.ip);
    const body = await authJson(c, verifyBody);
    const type = optionalString(body, 'type') ?? '';
    const kind = verifyTypes[type];
    if (!kind)
      throw validation(`Verify requires a valid type: ${Object.keys(verifyTypes).join(', ')}`);
    const tokenHashParam = optionalString(body, 'token_hash');
    let proof: TokenProof;
    if (phoneTypes.has(type)) {
      const token = optionalString(body, 'token');
      if (!body.phone || !token)
        throw validation(`Verify of type ${type} requires a phone and a token`);
      // The texted code is proven with the number it was sent to (stored like an address).
      proof = { email: phoneFrom(body.phone), code: token.trim() };
    } else if (tokenHashParam) proof = { link: tokenHashParam };
    else {
      const email = normalizeEmail(body.email);
      const token = optionalString(body, 'token');
      if (body.phone) throw validation('A phone is verified with type sms or phone_change');
      if (!email || !token)
        throw validation('Verify requires either a token_hash, or an email and a token');
      proof = { email, code: token.trim() };
    }
    const session = await services.db.transaction(async (tx) => {
      const consumed = await consumeOneTimeToken(tx, kind.tokens, proof);
      if (!consumed) return undefined;
      await applyToken(tx, consumed);
      return createSession(services, tx, consumed.userId, kind.amr, client);
    });
    if (!session) throw new AuthError(403, 'otp_expired', 'Token has expired or is invalid');
    return c.json(session);
  });

  app.post('/recover', async (c) => {
    const client = clientInfo(c);
    services.limits.hit('recover', client.ip);
    const body = await authJson(c, recoverBody);
    const email = normalizeEmail(body.email);
    if (!email)
      throw new AuthError(
        400,
        'email_address_invalid',
        'A valid email address is required to recover a password',
      );
    const pkce = pkceParams(body);
    const redirectTo = safeRedirect(services, c, c.req.query('redirect_to'));
    const mail = await services.db.transaction(async (tx) => {
      const user = await findUserByEmail(tx, email);
      if (!user) return undefined;
      const base = authBaseUrl(services, c);
      return mailedLink(tx, { userId: user.id, email, kind: 'recovery', pkce, base, redirectTo });
    });
    // The same answer whether or not the address has an account.
    await deliver(services, client.ip, mail);
    return c.json({});
  });

  /**
   * `resend({ type: 'sms' | 'phone_change', phone })`: a new code for a number still waiting
   * for one. The same answer whether or not the number is waiting; no text if it is not.
   */
  async function resendText(
    c: AuthContext,
    type: 'sms' | 'phone_change',
    body: { phone?: string | null },
  ): Promise<Record<string, never>> {
    requirePhoneProvider(services, 400, 'Unsupported phone provider');
    const phone = phoneFrom(body.phone);
    const { rows } = await services.db.query<UserRow & Record<string, unknown>>(
      type === 'sms'
        ? 'select * from auth.users where phone = $1 and phone_confirmed_at is null'
        : 'select * from auth.users where phone_change = $1',
      [phone],
    );
    const user = rows[0];
    if (user) await textCode(services, clientInfo(c).ip, user, phone, type);
    return {};
  }

  app.post('/resend', async (c) => {
    const client = clientInfo(c);
    services.limits.hit('recover', client.ip);
    const body = await authJson(c, resendBody);
    const type = optionalString(body, 'type');
    if (type === 'sms' || type === 'phone_change') return c.json(await resendText(c, type, body));
    const email = normalizeEmail(body.email);
    if (type !== 'signup' && type !== 'email_change')
      throw validation(
        'resend supports type signup or email_change with an email, sms or phone_change with a phone',
      );
    if (!email)
      throw new AuthError(400, 'email_address_invalid', 'A valid email address is required');
    const redirectTo = safeRedirect(
      services,
      c,
      optionalObject(body, 'options')?.emailRedirectTo ?? c.req.query('redirect_to'),
    );
    const mail = await services.db.transaction(async (tx) => {
      if (type === 'signup') {
        const user = await findUserByEmail(tx, email);
        if (!user || user.email_confirmed_at) return undefined;
        const base = authBaseUrl(services, c);
        return mailedLink(tx, { userId: user.id, email, kind: 'signup', base, redirectTo });
      }
      const { rows } = await tx.query<{ id: string }>(
        'select id from auth.users where lower(email_change) = $1',
        [email],
      );
      const user = rows[0];
      if (!user) return undefined;
      const { tokenHash, code } = await issueOneTimeToken(tx, user.id, 'email_change', email);
      return composeAuthMail(
        'email_change',
        email,
        code,
        verifyLink(authBaseUrl(services, c), tokenHash, 'email_change', redirectTo),
      );
    });
    await deliver(services, client.ip, mail);
    return c.json({});
  });

  return app;
}
