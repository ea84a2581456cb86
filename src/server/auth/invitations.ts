/**
 * Invitations by mail (GoTrue's `POST /invite`, and the organization admin's people screen):
 * an account without a password whose confirmation link signs the invitee in, so they can
 * choose a password. Inviting an address again re-sends a fresh link until it is accepted.
 */
import { brand } from '../../common/brand';
import type { Queryable } from '../db/types';
import { createUser } from './accounts';
import { AuthError } from './errors';
import { mailTemplates, type MailMessage } from './mail';
import { issueOneTimeToken } from './one-time-tokens';
import { findUserByEmail, type UserRow } from './users';

export interface Invitation {
  user: UserRow;
  /** False when an earlier invitation to this address had not been accepted yet. */
  created: boolean;
  /** To post once the transaction has committed. */
  mail: MailMessage;
  /** The link's secret and the typed code the mail carries (GoTrue's `generate_link` returns them). */
  tokenHash: string;
  code: string;
}

export class AccountExistsError extends AuthError {
  constructor() {
    super(422, 'email_exists', 'A user with this email address has already been registered');
  }
}

export async function inviteUser(
  tx: Queryable,
  input: {
    email: string;
    userMetadata: Record<string, unknown>;
    /** The organization that invites, named in the mail. */
    organization?: string;
    /** The verify link for the token (built by the HTTP layer, which knows the site URL). */
    linkFor: (tokenHash: string) => string;
  },
): Promise<Invitation> {
  const existing = await findUserByEmail(tx, input.email);
  if (existing?.email_confirmed_at || existing?.last_sign_in_at) throw new AccountExistsError();
  let user: UserRow;
  if (existing) {
    const { rows } = await tx.query<UserRow & Record<string, unknown>>(
      `update auth.users set raw_user_meta_data = raw_user_meta_data || $2::jsonb, updated_at = now()
       where id = $1 returning *`,
      [existing.id, JSON.stringify(input.userMetadata)],
    );
    user = rows[0]!;
  } else {
    user = await createUser(tx, {
      email: input.email,
      passwordHash: null,
      userMetadata: input.userMetadata,
      confirmed: false,
    });
  }
  const { tokenHash, code } = await issueOneTimeToken(tx, user.id, 'confirmation', input.email);
  await tx.query('update auth.users set confirmation_sent_at = now() where id = $1', [user.id]);
  const mail = mailTemplates.invitation(input.email, {
    product: brand.product,
    organization: input.organization,
    code,
    link: input.linkFor(tokenHash),
  });
  return { user, created: !existing, mail, tokenHash, code };
}
