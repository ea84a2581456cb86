/**
 * Account rows and the User object supabase-js expects (wire contract §5): identities and
 * factors included, app roles from public.user_roles in `app_metadata.roles`.
 */
import type { StoredCredential } from './webauthn';
import type { Queryable } from '../db/types';

export interface UserRow {
  id: string;
  email: string | null;
  phone: string | null;
  phone_confirmed_at: Date | null;
  phone_change: string | null;
  phone_change_sent_at: Date | null;
  role: string;
  aud: string;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  confirmation_sent_at: Date | null;
  recovery_sent_at: Date | null;
  email_change: string | null;
  email_change_sent_at: Date | null;
  reauthentication_sent_at: Date | null;
  last_sign_in_at: Date | null;
  banned_until: Date | null;
  is_anonymous: boolean;
  raw_app_meta_data: Record<string, unknown>;
  raw_user_meta_data: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

export interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  provider: string;
  identity_data: Record<string, unknown>;
  email: string | null;
  last_sign_in_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: 'totp' | 'phone' | 'webauthn' | 'recovery_code' | 'passkey';
  /** A phone factor's number (E.164 digits). */
  phone: string | null;
  /** A verified WebAuthn factor's credential (public parts only). */
  web_authn_credential: StoredCredential | null;
  status: 'unverified' | 'verified';
  /** The TOTP secret; null for a recovery-code set. */
  secret: string | null;
  last_used_step: number | null;
  failed_attempts: number;
  locked_until: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface LoadedUser {
  row: UserRow;
  identities: IdentityRow[];
  factors: FactorRow[];
  roles: string[];
}

const iso = (value: Date | string | null | undefined) =>
  value == null ? undefined : new Date(value).toISOString();

export function normalizeEmail(email: unknown): string | undefined {
  if (typeof email !== 'string') return undefined;
  const trimmed = email.trim().toLowerCase();
  // Deliberately simple: one @, something on each side, a dot in the domain, no spaces.
  if (trimmed.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed)) return undefined;
  return trimmed;
}

export async function findUserById(db: Queryable, id: string): Promise<UserRow | undefined> {
  if (!isUuid(id)) return undefined;
  const { rows } = await db.query<UserRow & Record<string, unknown>>(
    'select * from auth.users where id = $1',
    [id],
  );
  return rows[0];
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow & Record<string, unknown>>(
    'select * from auth.users where lower(email) = lower($1)',
    [email],
  );
  return rows[0];
}

/**
 * The user with identities, factors and app roles in one round trip: on PGlite every query
 * waits its turn, and a transaction's queries on PostgreSQL must not overlap either.
 */
export async function loadUser(db: Queryable, id: string): Promise<LoadedUser | undefined> {
  if (!isUuid(id)) return undefined;
  const { rows } = await db.query<
    UserRow & { identities: IdentityRow[]; factors: FactorRow[]; app_roles: string[] } & Record<
        string,
        unknown
      >
  >(
    `select u.*,
       coalesce((select json_agg(i order by i.created_at) from auth.identities i where i.user_id = u.id), '[]') as identities,
       coalesce((select json_agg(f order by f.created_at) from auth.mfa_factors f where f.user_id = u.id and f.factor_type <> 'passkey'), '[]') as factors,
       coalesce((select json_agg(r.role order by r.role)
                 from (select distinct role from public.user_roles where user_id = u.id) r), '[]') as app_roles
     from auth.users u where u.id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) return undefined;
  const { identities, factors, app_roles: roles, ...user } = row;
  return { row: user as UserRow, identities, factors, roles };
}

export function appMetadata(user: LoadedUser): Record<string, unknown> {
  const providers = [...new Set(user.identities.map((i) => i.provider))];
  // GoTrue names no provider for an anonymous user until it links one.
  if (user.row.is_anonymous && providers.length === 0)
    return { ...user.row.raw_app_meta_data, roles: user.roles };
  return {
    ...user.row.raw_app_meta_data,
    provider:
      (user.row.raw_app_meta_data.provider as string | undefined) ?? providers[0] ?? 'email',
    providers: providers.length > 0 ? providers : ['email'],
    roles: user.roles,
  };
}

export function identityJson(identity: IdentityRow) {
  return {
    identity_id: identity.id,
    id: identity.provider_id,
    user_id: identity.user_id,
    identity_data: identity.identity_data,
    provider: identity.provider,
    email: identity.email ?? undefined,
    last_sign_in_at: iso(identity.last_sign_in_at),
    created_at: iso(identity.created_at),
    updated_at: iso(identity.updated_at),
  };
}

export function factorJson(factor: FactorRow) {
  return {
    id: factor.id,
    friendly_name: factor.friendly_name ?? '',
    factor_type: factor.factor_type,
    status: factor.status,
    ...(factor.factor_type === 'phone' ? { phone: factor.phone ?? '' } : {}),
    created_at: iso(factor.created_at),
    updated_at: iso(factor.updated_at),
  };
}

export function userJson(user: LoadedUser) {
  const { row } = user;
  return {
    id: row.id,
    aud: row.aud,
    role: row.role,
    email: row.email ?? '',
    email_confirmed_at: iso(row.email_confirmed_at),
    phone: row.phone ?? '',
    phone_confirmed_at: iso(row.phone_confirmed_at),
    confirmation_sent_at: iso(row.confirmation_sent_at),
    recovery_sent_at: iso(row.recovery_sent_at),
    new_email: row.email_change ?? undefined,
    email_change_sent_at: iso(row.email_change_sent_at),
    new_phone: row.phone_change ?? undefined,
    phone_change_sent_at: iso(row.phone_change_sent_at),
    confirmed_at: iso(row.email_confirmed_at ?? row.phone_confirmed_at),
    last_sign_in_at: iso(row.last_sign_in_at),
    banned_until: iso(row.banned_until),
    app_metadata: appMetadata(user),
    user_metadata: row.raw_user_meta_data,
    identities: user.identities.map(identityJson),
    factors: user.factors.map(factorJson),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    is_anonymous: row.is_anonymous,
  };
}

export type UserJson = ReturnType<typeof userJson>;

export function isUuid(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
  );
}

export function isBanned(row: UserRow, now = new Date()): boolean {
  return row.banned_until != null && new Date(row.banned_until) > now;
}
