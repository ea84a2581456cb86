/**
 * The account a verified SAML login belongs to (decision 0033). The identity is
 * `sso:<provider id>` with the NameID as its id, as in GoTrue. A first sign-in creates the
 * account and makes it a member of the provider's organization (learner, or the role the
 * mapping's `role` claim names, if an organization may give it).
 *
 * An IdP is registered by an organization admin, so what it asserts is trusted only as far as
 * that organization reaches: it never opens an account by email unless the account already
 * belongs to the provider's organization, and it asserts only addresses of its domains.
 */
import type { Queryable } from '../db/types';
import { createUser } from './accounts';
import type { AuthErrorCode } from './errors';
import { isStableNameId, type SamlLogin } from './saml';
import { isMemberRole, type SsoProviderRow } from './sso-providers';
import { findUserByEmail } from './users';

/** A refusal that ends the sign-in with a redirect carrying the code and message. */
export class SsoSignInError extends Error {
  constructor(
    public readonly code: AuthErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SsoSignInError';
  }
}

export function ssoProviderName(providerId: string): string {
  return `sso:${providerId}`;
}

function fullName(claims: Record<string, unknown>): string | undefined {
  const parts = [claims.first_name, claims.last_name].filter(
    (p): p is string => typeof p === 'string' && p.trim() !== '',
  );
  return parts.length > 0 ? parts.join(' ') : undefined;
}

export async function ssoAccountFor(
  tx: Queryable,
  provider: SsoProviderRow,
  login: SamlLogin,
  claims: Record<string, unknown>,
): Promise<{ userId: string; created: boolean }> {
  if (!isStableNameId(login)) {
    throw new SsoSignInError(
      'saml_assertion_no_user_id',
      'SAML Assertion did not contain a persistent Subject NameID uniquely identifying this user',
    );
  }
  const email = typeof claims.email === 'string' ? claims.email : '';
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) {
    throw new SsoSignInError(
      'saml_assertion_no_email',
      'SAML Assertion does not contain an email address',
    );
  }
  const emailDomain = email.slice(email.lastIndexOf('@') + 1);
  if (provider.domains.length > 0 && !provider.domains.includes(emailDomain)) {
    throw new SsoSignInError(
      'validation_failed',
      `The identity provider asserted ${email}, an address outside its domains (${provider.domains.join(', ')})`,
    );
  }
  const providerName = ssoProviderName(provider.id);
  const identityData = {
    ...claims,
    sub: login.nameId,
    iss: login.issuer,
    email,
    email_verified: true,
    provider_id: login.nameId,
  };
  const upsertIdentity = (userId: string) =>
    tx.query(
      `insert into auth.identities (provider_id, user_id, provider, identity_data, email, last_sign_in_at)
       values ($1, $2, $3, $4, $5, now())
       on conflict (provider, provider_id) do update
         set identity_data = excluded.identity_data, email = excluded.email, last_sign_in_at = now(), updated_at = now()`,
      [login.nameId, userId, providerName, JSON.stringify(identityData), email],
    );

  const { rows } = await tx.query<{ user_id: string }>(
    'select user_id from auth.identities where provider = $1 and provider_id = $2',
    [providerName, login.nameId],
  );
  if (rows[0]) {
    await upsertIdentity(rows[0].user_id);
    return { userId: rows[0].user_id, created: false };
  }

  const existing = await findUserByEmail(tx, email);
  if (existing) {
    const member =
      provider.organization_id &&
      (
        await tx.query(
          'select 1 from public.memberships where user_id = $1 and organization_id = $2',
          [existing.id, provider.organization_id],
        )
      ).rows.length > 0;
    if (!member) {
      throw new SsoSignInError(
        'email_exists',
        `An account with ${email} already exists and is not a member of this identity provider's organization: sign in with its password instead`,
      );
    }
    await upsertIdentity(existing.id);
    return { userId: existing.id, created: false };
  }

  const name = fullName(claims);
  const user = await createUser(tx, {
    email,
    passwordHash: null,
    userMetadata: {
      email,
      email_verified: true,
      ...(typeof claims.first_name === 'string' ? { first_name: claims.first_name } : {}),
      ...(typeof claims.last_name === 'string' ? { last_name: claims.last_name } : {}),
      ...(name ? { full_name: name, name } : {}),
    },
    confirmed: true,
    provider: providerName,
  });
  await tx.query('update auth.users set is_sso_user = true where id = $1', [user.id]);
  await upsertIdentity(user.id);
  if (provider.organization_id) {
    const role = isMemberRole(claims.role) ? claims.role : 'learner';
    await tx.query(
      `insert into public.memberships (user_id, organization_id, role, created_by)
       values ($1, $2, $3, null)`,
      [user.id, provider.organization_id, role],
    );
  }
  return { userId: user.id, created: true };
}
