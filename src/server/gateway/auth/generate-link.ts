/**
 * `POST /admin/generate_link` (`supabase.auth.admin.generateLink`): the link and code a mail
 * would carry, returned to the service role instead of mailed, for the types GoTrue knows —
 * signup, invite, magiclink, recovery, email_change_new (and email_change_current, which needs
 * the two-mail email change this server does not do).
 */
import { Hono } from 'hono';
import { createUser } from '../../auth/accounts';
import { AuthError, validation } from '../../auth/errors';
import { AccountExistsError, inviteUser } from '../../auth/invitations';
import { issueOneTimeToken } from '../../auth/one-time-tokens';
import { checkPasswordStrength, hashPassword } from '../../auth/passwords';
import { findUserByEmail, loadUser, normalizeEmail, userJson } from '../../auth/users';
import type { Queryable } from '../../db/types';
import { authJson, generateLinkBody } from './bodies';
import {
  authBaseUrl,
  optionalObject,
  optionalString,
  requireServiceRole,
  safeRedirect,
  type AuthEnv,
  type AuthServices,
} from './http';
import { issueLinkToken, verifyLink, type LinkKind } from './signup';

interface GeneratedLink {
  userId: string;
  tokenHash: string;
  code: string;
  /** The `type` of the verify link. */
  linkType: string;
  /** What GoTrue reports as `verification_type`. */
  verification: string;
}

const signupsDisabled = () =>
  new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance');

const userNotFound = () => new AuthError(404, 'user_not_found', 'User with this email not found');

/** A sign-up, magic-link or recovery link's token, as the mailed one would be issued. */
async function issue(tx: Queryable, userId: string, email: string, kind: LinkKind) {
  const { tokenHash, code } = await issueLinkToken(tx, userId, email, kind);
  return { userId, tokenHash, code, linkType: kind, verification: kind };
}

export function generateLinkRoutes(services: AuthServices) {
  const app = new Hono<AuthEnv>();
  app.use('/admin/generate_link', requireServiceRole(services));

  app.post('/admin/generate_link', async (c) => {
    const body = await authJson(c, generateLinkBody);
    const type = optionalString(body, 'type') ?? '';
    const email = normalizeEmail(body.email);
    if (!email)
      throw new AuthError(400, 'email_address_invalid', 'A valid email address is required');
    const redirectTo = safeRedirect(
      services,
      c,
      optionalString(body, 'redirect_to') ?? c.req.query('redirect_to'),
    );
    const metadata = optionalObject(body, 'data') ?? {};
    const base = authBaseUrl(services, c);
    // A sign-up's password is checked and hashed before the transaction (the costly part).
    const minLength = services.config.auth.passwordMinLength;
    const signUpPassword =
      type === 'signup'
        ? (checkPasswordStrength(body.password, minLength), await hashPassword(body.password))
        : null;

    const signUp = async (tx: Queryable, passwordHash: string | null) => {
      const found = await findUserByEmail(tx, email);
      if (found?.email_confirmed_at) throw new AccountExistsError();
      if (!found && services.config.auth.disableSignup) throw signupsDisabled();
      let userId = found?.id;
      if (found) {
        await tx.query(
          `update auth.users set raw_user_meta_data = raw_user_meta_data || $2::jsonb,
             encrypted_password = coalesce($3, encrypted_password), updated_at = now()
           where id = $1`,
          [found.id, JSON.stringify(metadata), passwordHash],
        );
      } else {
        userId = (
          await createUser(tx, { email, passwordHash, userMetadata: metadata, confirmed: false })
        ).id;
      }
      return issue(tx, userId!, email, 'signup');
    };

    const link = await services.db.transaction(async (tx): Promise<GeneratedLink> => {
      const user = await findUserByEmail(tx, email);
      switch (type) {
        case 'signup':
          return signUp(tx, signUpPassword);
        case 'magiclink':
          // As GoTrue: an address without an account gets a sign-up link (and no password).
          if (!user) return signUp(tx, null);
          return issue(tx, user.id, email, 'magiclink');
        case 'recovery':
          if (!user) throw userNotFound();
          return issue(tx, user.id, email, 'recovery');
        case 'invite': {
          const invitation = await inviteUser(tx, {
            email,
            userMetadata: metadata,
            linkFor: () => '',
          });
          return {
            userId: invitation.user.id,
            tokenHash: invitation.tokenHash,
            code: invitation.code,
            linkType: 'invite',
            verification: 'invite',
          };
        }
        case 'email_change_new': {
          if (!user) throw userNotFound();
          const newEmail = normalizeEmail(body.new_email);
          if (!newEmail)
            throw new AuthError(400, 'email_address_invalid', 'A valid new_email is required');
          const taken = await findUserByEmail(tx, newEmail);
          if (taken && taken.id !== user.id) throw new AccountExistsError();
          await tx.query(
            'update auth.users set email_change = $2, email_change_sent_at = now(), updated_at = now() where id = $1',
            [user.id, newEmail],
          );
          const changed = await issueOneTimeToken(tx, user.id, 'email_change', newEmail);
          return { userId: user.id, ...changed, linkType: 'email_change', verification: type };
        }
        case 'email_change_current':
          throw validation('Enable secure email change to generate link for current email');
        default:
          throw validation(`Invalid email action link type requested: ${type}`);
      }
    });

    const user = await loadUser(services.db, link.userId);
    return c.json({
      ...userJson(user!),
      action_link: verifyLink(base, link.tokenHash, link.linkType, redirectTo),
      email_otp: link.code,
      hashed_token: link.tokenHash,
      verification_type: link.verification,
      redirect_to: redirectTo,
    });
  });

  return app;
}
