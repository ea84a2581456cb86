/**
 * `POST /otp` (`signInWithOtp`): with an email, a magic link and a six-digit code to sign in,
 * as GoTrue's MagicLink does it. An address without a confirmed account gets a sign-up
 * confirmation instead (unless `create_user` is false), so the first link both creates the
 * account and signs in. With a phone (AUTH_PHONE), a texted code.
 */
import { Hono } from 'hono';
import { createUser } from '../../auth/accounts';
import { AuthError, validation } from '../../auth/errors';
import type { MailMessage } from '../../auth/mail';
import { checkCoupon, redeemCoupon } from '../../billing/coupons';
import { findUserByEmail, normalizeEmail } from '../../auth/users';
import type { Queryable } from '../../db/types';
import { authJson, otpBody, type OtpBody } from './bodies';
import { phoneFrom, requirePhoneProvider, textCode } from './phone';
import { createPhoneUser, findUserByPhone } from '../../auth/phone';
import { couponForSignUp, refusingCoupons } from './coupon-gate';
import {
  authBaseUrl,
  clientInfo,
  optionalObject,
  pkceParams,
  safeRedirect,
  type AuthEnv,
  type AuthServices,
} from './http';
import { deliver, mailedLink } from './signup';

export function otpRoutes(services: AuthServices) {
  const app = new Hono<AuthEnv>();

  /**
   * `signInWithOtp({ phone })`: a texted code, verified with type `sms`. An unknown number
   * becomes an unconfirmed account first (unless `create_user` is false), as GoTrue does.
   */
  async function textSignIn(ip: string, body: OtpBody): Promise<{ message_id: string }> {
    requirePhoneProvider(services, 400, 'Unsupported phone provider');
    const phone = phoneFrom(body.phone);
    if (body.channel && body.channel !== 'sms')
      throw validation('Only the sms channel is available on this server');
    let user = await findUserByPhone(services.db, phone);
    if (!user) {
      if (!(body.create_user ?? true))
        throw new AuthError(422, 'otp_disabled', 'Signups not allowed for otp');
      if (services.config.auth.disableSignup)
        throw new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance');
      const { coupon, metadata } = couponForSignUp(services, ip, optionalObject(body, 'data'));
      if (coupon) await refusingCoupons(() => checkCoupon(services.db, coupon));
      user = await refusingCoupons(() =>
        services.db.transaction(async (tx) => {
          const created = await createPhoneUser(tx, {
            phone,
            passwordHash: null,
            userMetadata: metadata,
          });
          if (coupon) await redeemCoupon(tx, coupon, created.id, 'sign_up');
          return created;
        }),
      );
    }
    return { message_id: await textCode(services, ip, user, phone, 'sms') };
  }

  app.post('/otp', async (c) => {
    const client = clientInfo(c);
    services.limits.hit('recover', client.ip);
    const body = await authJson(c, otpBody);
    const hasPhone = typeof body.phone === 'string' && body.phone !== '';
    const hasEmail = typeof body.email === 'string' && body.email !== '';
    if (hasEmail && hasPhone)
      throw validation('Only an email address or phone number should be provided');
    if (hasEmail && body.channel)
      throw validation('Channel should only be specified with Phone OTP');
    if (hasPhone) return c.json(await textSignIn(client.ip, body));
    if (!hasEmail) throw validation('One of email or phone must be set');
    const email = normalizeEmail(body.email);
    if (!email)
      throw new AuthError(
        400,
        'email_address_invalid',
        `Email address "${String(body.email)}" is invalid`,
      );
    const createIfMissing = body.create_user ?? true;
    const pkce = pkceParams(body);
    const redirectTo = safeRedirect(services, c, c.req.query('redirect_to'));
    const base = authBaseUrl(services, c);
    const autoconfirm = services.config.auth.autoconfirm;

    const existing = await findUserByEmail(services.db, email);
    if (!existing && !createIfMissing)
      throw new AuthError(422, 'otp_disabled', 'Signups not allowed for otp');

    const mailed = (tx: Queryable, userId: string, kind: 'signup' | 'magiclink') =>
      mailedLink(tx, { userId, email, kind, pkce, base, redirectTo });

    let mail: MailMessage | undefined;
    if (existing?.email_confirmed_at) {
      mail = await services.db.transaction((tx) => mailed(tx, existing.id, 'magiclink'));
    } else {
      if (!existing && services.config.auth.disableSignup)
        throw new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance');
      // A new account, as a sign-up makes it: the beta gate's coupon applies here too.
      const { coupon, metadata } = couponForSignUp(
        services,
        client.ip,
        optionalObject(body, 'data'),
      );
      if (coupon) await refusingCoupons(() => checkCoupon(services.db, coupon));
      mail = await refusingCoupons(() =>
        services.db.transaction(async (tx) => {
          const found = await findUserByEmail(tx, email);
          if (found?.email_confirmed_at) return mailed(tx, found.id, 'magiclink');
          const userId =
            found?.id ??
            (
              await createUser(tx, {
                email,
                passwordHash: null,
                userMetadata: metadata,
                confirmed: autoconfirm,
              })
            ).id;
          if (coupon) await redeemCoupon(tx, coupon, userId, 'sign_up');
          if (autoconfirm) return mailed(tx, userId, 'magiclink');
          return mailed(tx, userId, 'signup');
        }),
      );
    }
    await deliver(services, client.ip, mail);
    return c.json({});
  });

  return app;
}
