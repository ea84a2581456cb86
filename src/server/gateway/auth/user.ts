/** `GET|PUT /user`, `GET /reauthenticate`, `POST /logout`, and the user's session list. */
import { Hono } from 'hono';
import { applyEmailChange, composeAuthMail, setPassword } from '../../auth/accounts';
import { canReachAal2, needsAal2, requireAal2IfEnrolled } from '../../auth/aal';
import { AuthError, validation } from '../../auth/errors';
import { brand } from '../../../common/brand';
import { emailChangeNotice, passwordChangedNotice, type MailMessage } from '../../auth/mail';
import { consumeOneTimeToken, issueOneTimeToken } from '../../auth/one-time-tokens';
import { checkPasswordStrength, hashPassword, verifyPassword } from '../../auth/passwords';
import { saveFlowState } from '../../auth/flow-state';
import { findUserByPhone } from '../../auth/phone';
import { normalizePhone } from '../../auth/sms';
import { findUserByEmail, loadUser, normalizeEmail, userJson } from '../../auth/users';
import { authJson, updateUserBody } from './bodies';
import {
  authBaseUrl,
  clientInfo,
  optionalObject,
  optionalString,
  pkceParams,
  requireUser,
  safeRedirect,
  type AuthEnv,
  type AuthServices,
} from './http';
import { phoneFrom, requirePhoneProvider, textCode } from './phone';
import { verifyLink } from './signup';

/** A password change without the mailed nonce is allowed only this soon after signing in. */
export const RECENT_SESSION_MS = 24 * 3600 * 1000;

export function userRoutes(services: AuthServices) {
  const app = new Hono<AuthEnv>();
  const auth = requireUser(services);

  app.get('/user', auth, (c) => c.json(userJson(c.get('user'))));

  app.put('/user', auth, async (c) => {
    const body = await authJson(c, updateUserBody);
    const { row } = c.get('user');
    const session = c.get('session');
    const client = clientInfo(c);
    const password = body.password;
    const nonce = optionalString(body, 'nonce');
    const data = optionalObject(body, 'data');
    const emailParam = body.email;
    // A new number is texted a code; it replaces the old one once `phone_change` is verified.
    let phone: string | undefined;
    if (body.phone && normalizePhone(body.phone) !== row.phone) {
      requirePhoneProvider(services, 422, 'Unsupported phone provider');
      phone = phoneFrom(body.phone);
    }
    const email =
      emailParam === undefined || emailParam === null ? undefined : normalizeEmail(emailParam);
    if (emailParam !== undefined && emailParam !== null && !email) {
      throw new AuthError(
        400,
        'email_address_invalid',
        `Email address "${String(emailParam)}" is invalid`,
      );
    }
    // An anonymous account's password is set with (or after) an address that can recover it.
    if (row.is_anonymous && password && !email && !phone) {
      throw new AuthError(
        422,
        'validation_failed',
        'Updating password of an anonymous user without an email or phone is not allowed',
      );
    }
    let passwordHash: string | undefined;
    if (password !== undefined && password !== null) {
      checkPasswordStrength(password, services.config.auth.passwordMinLength);
      if (row.encrypted_password && (await verifyPassword(row.encrypted_password, password))) {
        throw new AuthError(
          422,
          'same_password',
          'New password should be different from the old password.',
        );
      }
      passwordHash = await hashPassword(password);
    }
    const redirectTo = safeRedirect(services, c, c.req.query('redirect_to'));
    const pkce = pkceParams(body);
    const user = c.get('user');
    if (passwordHash || (email && email !== row.email) || phone) {
      requireAal2IfEnrolled(
        user,
        session,
        'AAL2 session is required to update email or password when MFA is enabled.',
      );
    }

    // A nonce that was sent is always checked, recent session or not: a client that
    // re-authenticates on purpose (the settings screen) must not have a wrong code accepted.
    const staleSession = Date.now() - new Date(session.created_at).getTime() > RECENT_SESSION_MS;
    if (passwordHash && (staleSession || nonce)) {
      if (!nonce) {
        throw new AuthError(
          400,
          'reauthentication_needed',
          'Password update requires reauthentication',
        );
      }
      // Its own transaction: a wrong nonce must still count as a failed attempt.
      const consumed = await services.db.transaction((tx) =>
        consumeOneTimeToken(tx, ['reauthentication'], {
          email: row.email ?? '',
          code: nonce.trim(),
        }),
      );
      if (!consumed || consumed.userId !== row.id) {
        throw new AuthError(400, 'reauthentication_not_valid', 'Requires a valid nonce');
      }
    }

    const mail = await services.db.transaction(async (tx): Promise<MailMessage | undefined> => {
      // The session the password was changed in stays; every other one ends.
      if (passwordHash) await setPassword(tx, row, passwordHash, session.id);
      if (data) {
        // Top-level merge; a null value removes the key (Supabase Auth's behaviour).
        const merged: Record<string, unknown> = { ...row.raw_user_meta_data };
        for (const [key, value] of Object.entries(data)) {
          if (value === null) delete merged[key];
          else merged[key] = value;
        }
        await tx.query(
          'update auth.users set raw_user_meta_data = $2, updated_at = now() where id = $1',
          [row.id, JSON.stringify(merged)],
        );
      }
      if (phone) {
        const holder = await findUserByPhone(tx, phone);
        if (holder && holder.id !== row.id) {
          throw new AuthError(
            422,
            'phone_exists',
            'A user with this phone number has already been registered',
          );
        }
      }
      if (email && email !== row.email) {
        const taken = await findUserByEmail(tx, email);
        if (taken && taken.id !== row.id) {
          throw new AuthError(
            422,
            'email_exists',
            'A user with this email address has already been registered',
          );
        }
        if (services.config.auth.autoconfirm) {
          await applyEmailChange(tx, row.id, email);
          return undefined;
        }
        await tx.query(
          'update auth.users set email_change = $2, email_change_sent_at = now(), updated_at = now() where id = $1',
          [row.id, email],
        );
        const { tokenHash, code } = await issueOneTimeToken(tx, row.id, 'email_change', email);
        if (pkce) await saveFlowState(tx, row.id, 'email_change', pkce);
        return composeAuthMail(
          'email_change',
          email,
          code,
          verifyLink(authBaseUrl(services, c), tokenHash, 'email_change', redirectTo),
        );
      }
      return undefined;
    });
    if (passwordHash && row.email) {
      await services.mailer.post(passwordChangedNotice(row.email, brand.product, 'user'));
    }
    if (mail) {
      services.limits.hit('email', client.ip);
      await services.mailer.send(mail);
      // The current owner of the account hears about it, in case the session was stolen.
      if (row.email)
        await services.mailer.send(emailChangeNotice(row.email, brand.product, mail.to));
    }
    if (phone) await textCode(services, client.ip, row, phone, 'phone_change');
    const updated = await loadUser(services.db, row.id);
    return c.json(userJson(updated!));
  });

  app.get('/reauthenticate', auth, async (c) => {
    const { row } = c.get('user');
    if (!row.email) throw validation('Reauthentication needs an email address on the account');
    services.limits.hit('email', clientInfo(c).ip);
    const mail = await services.db.transaction(async (tx) => {
      const { code } = await issueOneTimeToken(tx, row.id, 'reauthentication', row.email!);
      await tx.query('update auth.users set reauthentication_sent_at = now() where id = $1', [
        row.id,
      ]);
      return composeAuthMail('reauthentication', row.email!, code, undefined);
    });
    await services.mailer.send(mail);
    return c.json({});
  });

  app.post('/logout', auth, async (c) => {
    const scope = c.req.query('scope') ?? 'global';
    const session = c.get('session');
    // A password alone must not be enough to end the sessions of whoever holds the factor.
    // Our rule, not GoTrue's: it applies only while the account can reach aal2 here, so an
    // account whose only factor the server no longer verifies is not held to what it cannot
    // do (GoTrue never asks; decision 0061).
    const user = c.get('user');
    const verifiable = {
      phone: services.config.auth.mfaPhone.verify,
      webauthn: services.config.auth.webauthn.mfaVerify,
    };
    if (
      (scope === 'global' || scope === 'others') &&
      needsAal2(user, session) &&
      canReachAal2(user, verifiable)
    ) {
      // supabase-js drops its stored session when a global sign-out is refused with 403, so
      // the caller's own session ends here too rather than being left behind on the server.
      if (scope === 'global') {
        await services.db.query('delete from auth.sessions where id = $1', [session.id]);
      }
      throw new AuthError(
        403,
        'insufficient_aal',
        scope === 'global'
          ? 'This session is signed out. Signing out the other sessions needs your second factor (AAL2) when MFA is enabled.'
          : 'AAL2 session is required to sign out other sessions when MFA is enabled.',
      );
    }
    if (scope === 'global') {
      await services.db.query('delete from auth.sessions where user_id = $1', [session.user_id]);
    } else if (scope === 'local') {
      await services.db.query('delete from auth.sessions where id = $1', [session.id]);
    } else if (scope === 'others') {
      await services.db.query('delete from auth.sessions where user_id = $1 and id <> $2', [
        session.user_id,
        session.id,
      ]);
    } else {
      throw validation('scope must be global, local or others');
    }
    return c.body(null, 204);
  });

  /**
   * The signed-in user's sessions, for the account screen. Not a Supabase Auth endpoint: GoTrue
   * keeps sessions internal, but "sign out other devices" needs to show what it will end.
   */
  app.get('/user/sessions', auth, async (c) => {
    const current = c.get('session');
    const { rows } = await services.db.query<{
      id: string;
      aal: string;
      user_agent: string | null;
      ip: string | null;
      created_at: Date;
      refreshed_at: Date;
      not_after: Date;
    }>(
      'select id, aal, user_agent, ip, created_at, refreshed_at, not_after from auth.sessions where user_id = $1 order by refreshed_at desc',
      [current.user_id],
    );
    return c.json(
      rows.map((s) => ({
        id: s.id,
        aal: s.aal,
        user_agent: s.user_agent,
        ip: s.ip,
        created_at: new Date(s.created_at).toISOString(),
        refreshed_at: new Date(s.refreshed_at).toISOString(),
        not_after: new Date(s.not_after).toISOString(),
        current: s.id === current.id,
      })),
    );
  });

  return app;
}
