/** `POST /token`: password, refresh_token, pkce and id_token grants; web3 refused. */
import { Hono } from 'hono';
import { AuthError } from '../../auth/errors';
import { exchangeAuthCode } from '../../auth/flow-state';
import { createOidcProvider } from '../../auth/oidc';
import {
  clearPasswordFailures,
  passwordLockedError,
  passwordLockedUntil,
  recordPasswordFailure,
} from '../../auth/password-lockout';
import { verifyPassword } from '../../auth/passwords';
import { findUserByPhone } from '../../auth/phone';
import { createSession, refreshSession } from '../../auth/sessions';
import { normalizePhone } from '../../auth/sms';
import { findUserByEmail, isBanned, normalizeEmail } from '../../auth/users';
import { authJson, tokenBody } from './bodies';
import { idTokenGrant } from './id-token';
import { requirePhoneProvider } from './phone';
import { clientInfo, optionalString, type AuthEnv, type AuthServices } from './http';

const amrForFlow = {
  'email/signup': 'otp',
  magiclink: 'otp',
  recovery: 'recovery',
  email_change: 'otp',
  oauth: 'oauth',
  'sso/saml': 'sso/saml',
} as const;

export function tokenRoutes(services: AuthServices) {
  const app = new Hono<AuthEnv>();
  const oidc = createOidcProvider(services.config);

  async function recordFailure(
    email: string | undefined,
    userId: string | undefined,
    client: { ip: string; userAgent?: string },
    reason: string,
  ) {
    await services.db.query(
      'insert into auth.failed_sign_ins (email, user_id, ip, user_agent, reason) values ($1, $2, $3, $4, $5)',
      [email ?? null, userId ?? null, client.ip, client.userAgent?.slice(0, 512) ?? null, reason],
    );
  }

  app.post('/token', async (c) => {
    const grant = c.req.query('grant_type');
    const client = clientInfo(c);
    const body = await authJson(c, tokenBody);

    if (grant === 'password') {
      services.limits.hit('sign_in', client.ip);
      // With a phone and no email, the phone is the login (GoTrue's phone provider).
      const byPhone = !body.email && !!body.phone;
      if (byPhone) requirePhoneProvider(services, 422, 'Phone logins are disabled');
      const phone = byPhone ? normalizePhone(body.phone) : undefined;
      // Failures and locks are counted per login: the address, or the number with its "+".
      const login = byPhone ? (phone ? `+${phone}` : undefined) : normalizeEmail(body.email);
      const password = optionalString(body, 'password');
      if (!login || !password) {
        await recordFailure(
          typeof body.email === 'string' ? body.email.slice(0, 254) : undefined,
          undefined,
          client,
          'missing_credentials',
        );
        throw new AuthError(
          400,
          'validation_failed',
          byPhone
            ? 'Sign-in needs a phone number in E.164 format and a password'
            : 'Sign-in needs an email address and a password',
        );
      }
      const lockout = services.config.auth.passwordLockout;
      const locked = await passwordLockedUntil(services.db, login);
      if (locked) {
        await recordFailure(login, undefined, client, 'address_locked');
        throw passwordLockedError(locked);
      }
      const user = phone
        ? await findUserByPhone(services.db, phone)
        : await findUserByEmail(services.db, login);
      // One argon2 verification on both paths: an unknown address is checked against a
      // stand-in hash, so the answer takes as long as for a real account.
      const valid = await verifyPassword(user?.encrypted_password ?? null, password);
      if (!user || !valid) {
        await recordFailure(login, user?.id, client, 'invalid_credentials');
        const lockedNow = await recordPasswordFailure(services.db, login, lockout);
        if (lockedNow) throw passwordLockedError(lockedNow);
        throw new AuthError(400, 'invalid_credentials', 'Invalid login credentials');
      }
      await clearPasswordFailures(services.db, login);
      if (phone && !user.phone_confirmed_at) {
        await recordFailure(login, user.id, client, 'phone_not_confirmed');
        throw new AuthError(400, 'phone_not_confirmed', 'Phone not confirmed');
      }
      if (!phone && !user.email_confirmed_at) {
        await recordFailure(login, user.id, client, 'email_not_confirmed');
        throw new AuthError(400, 'email_not_confirmed', 'Email not confirmed');
      }
      if (isBanned(user)) {
        await recordFailure(login, user.id, client, 'user_banned');
        throw new AuthError(400, 'user_banned', 'User is banned');
      }
      const session = await services.db.transaction((tx) =>
        createSession(services, tx, user.id, 'password', client),
      );
      return c.json(session);
    }

    if (grant === 'refresh_token') {
      services.limits.hit('token_refresh', client.ip);
      return c.json(await refreshSession(services, body.refresh_token));
    }

    if (grant === 'pkce') {
      services.limits.hit('verify', client.ip);
      const session = await services.db.transaction(async (tx) => {
        const flow = await exchangeAuthCode(tx, body.auth_code, body.code_verifier);
        return createSession(services, tx, flow.userId, amrForFlow[flow.method], client);
      });
      return c.json(session);
    }

    if (grant === 'id_token') {
      services.limits.hit('sign_in', client.ip);
      return c.json(await idTokenGrant(services, oidc, c, body));
    }

    // No wallet sign-in: accounts here belong to people a university knows, not to keys.
    if (grant === 'web3') {
      throw new AuthError(422, 'web3_provider_disabled', 'Web3 provider is disabled');
    }

    throw new AuthError(400, 'invalid_credentials', 'unsupported_grant_type');
  });

  return app;
}
