/**
 * The organization admin's people: who the members are, adding them (by invitation or with a
 * password), their roles, deactivation and reactivation (decision 0130). Every operation
 * first asks the database whether the verified caller administers the organization, with the
 * helpers the row-level policies use, and does its checks and writes in one transaction, so a
 * refusal writes nothing.
 */
import type {
  MemberPage,
  MemberQuery,
  MemberRoleRow,
  MemberStatus,
  NewMember,
  OrgMember,
  RoleAssignment,
} from '../../common/org-people';
import { MEMBERS_PAGE_SIZE } from '../../common/org-people';
import { createUser } from '../auth/accounts';
import { AccountExistsError, inviteUser } from '../auth/invitations';
import type { MailMessage } from '../auth/mail';
import { checkPasswordStrength, hashPassword } from '../auth/passwords';
import { findUserByEmail } from '../auth/users';
import type { Database, Queryable } from '../db/types';

/** A refusal or a bad request the endpoint answers with its status and message. */
export class PeopleError extends Error {
  constructor(
    public readonly status: 400 | 403 | 404 | 409 | 413 | 422,
    public readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'PeopleError';
  }
}

/** The SQLSTATEs the people procedures raise (db/app/0350), as answers. */
export function peopleErrorFrom(error: unknown): PeopleError | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (code === '42501') return new PeopleError(403, 'forbidden', error.message);
  if (code === 'P0002') return new PeopleError(404, 'not_found', error.message);
  if (code === '22023') return new PeopleError(400, 'invalid_input', error.message);
  if (code === '23505') return new PeopleError(409, 'conflict', error.message);
  return undefined;
}

async function translated<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw peopleErrorFrom(error) ?? error;
  }
}

/**
 * What the caller manages: the whole organization (its owner and organization-wide admins,
 * `boards` null) or, for a board admin, the memberships of the boards they administer
 * (decision 0142). Anyone else is refused (403).
 */
export interface AdminScope {
  organizationName: string;
  boards: string[] | null;
}

export async function requireAdminScope(
  db: Queryable,
  actor: string,
  org: string,
): Promise<AdminScope> {
  const { rows } = await db.query<{ whole: boolean; boards: string[]; name: string | null }>(
    `select learning.is_org_admin($1::uuid, $2::uuid) as whole,
            learning.admin_boards_in($1::uuid, $2::uuid)::text[] as boards,
            (select name from public.organizations where id = $2::uuid) as name`,
    [actor, org],
  );
  const row = rows[0];
  if (!row || (!row.whole && row.boards.length === 0)) {
    throw new PeopleError(
      403,
      'forbidden',
      'Only an administrator of this organization can manage its people',
    );
  }
  return { organizationName: row.name ?? '', boards: row.whole ? null : row.boards };
}

function rolesJson(roles: readonly RoleAssignment[]): string {
  return JSON.stringify(roles.map((r) => ({ role: r.role, board_id: r.boardId })));
}

function ilike(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

interface MemberDbRow {
  user_id: string;
  email: string | null;
  full_name: string | null;
  roles: MemberRoleRow[];
  active: boolean;
  invited: boolean;
  is_owner: boolean;
  last_sign_in_at: Date | string | null;
}

const iso = (value: Date | string | null) => (value == null ? null : new Date(value).toISOString());

// Members are users with a membership in the organization; their status: invited (never
// signed in, address not confirmed), active (a membership is active) or deactivated.
const membersSql = `
  with people as (
    select m.user_id, bool_or(m.active) as active,
           jsonb_agg(jsonb_build_object('role', m.role, 'boardId', m.board_id,
                                        'boardName', b.name, 'active', m.active)
                     order by m.role, b.name nulls first) as roles
      from public.memberships m
      left join public.boards b on b.id = m.board_id
     where m.organization_id = $1 and ($6::uuid[] is null or m.board_id = any ($6::uuid[]))
       -- An API key's principal is no person: its keys have their own screen (decision 0610).
       and not exists (select 1 from platform.organization_api_keys k where k.principal_id = m.user_id)
     group by m.user_id
  ), listed as (
    select p.user_id, u.email, coalesce(pr.full_name, pr.display_name) as full_name, p.roles,
           p.active, (u.email_confirmed_at is null and u.last_sign_in_at is null) as invited,
           o.owner_id is not distinct from p.user_id as is_owner, u.last_sign_in_at
      from people p
      join auth.users u on u.id = p.user_id
      left join public.profiles pr on pr.id = p.user_id
      join public.organizations o on o.id = $1
     where ($2 = '' or u.email ilike $3 or pr.full_name ilike $3 or pr.display_name ilike $3)
       and ($4 = '' or exists (select 1 from jsonb_array_elements(p.roles) r where r ->> 'role' = $4))
  )
  select * from listed
   where $5 = ''
      or ($5 = 'invited' and invited)
      or ($5 = 'active' and active and not invited)
      or ($5 = 'deactivated' and not active)`;

function memberFrom(row: MemberDbRow): OrgMember {
  const status: MemberStatus = !row.active ? 'deactivated' : row.invited ? 'invited' : 'active';
  return {
    userId: row.user_id,
    email: row.email ?? '',
    fullName: row.full_name,
    roles: row.roles,
    status,
    isOwner: row.is_owner,
    lastSignInAt: iso(row.last_sign_in_at),
  };
}

export async function listMembers(
  db: Database,
  actor: string,
  org: string,
  query: MemberQuery,
): Promise<MemberPage> {
  return db.transaction(async (tx) => {
    const scope = await requireAdminScope(tx, actor, org);
    const params = [org, query.q, ilike(query.q), query.role, query.status, scope.boards];
    const counted = await tx.query<{ n: number }>(
      `select count(*)::int as n from (${membersSql}) counted`,
      params,
    );
    const { rows } = await tx.query<MemberDbRow & Record<string, unknown>>(
      `${membersSql}
       order by lower(coalesce(full_name, email)), user_id
       limit $7 offset $8`,
      [...params, MEMBERS_PAGE_SIZE, (query.page - 1) * MEMBERS_PAGE_SIZE],
    );
    return { total: counted.rows[0]!.n, members: rows.map(memberFrom) };
  });
}

async function loadMember(
  tx: Queryable,
  org: string,
  scope: AdminScope,
  member: string,
): Promise<OrgMember> {
  const { rows } = await tx.query<MemberDbRow & Record<string, unknown>>(
    `select * from (${membersSql}) m where user_id = $7`,
    [org, '', '%', '', '', scope.boards, member],
  );
  if (!rows[0])
    throw new PeopleError(404, 'not_found', 'This person is not a member of this organization');
  return memberFrom(rows[0]);
}

export interface AddedMember {
  member: OrgMember;
  /** invited: a new account was mailed an invitation; created: an account with a password;
   * existing: the address already had an account, which joined the organization. */
  outcome: 'invited' | 'created' | 'existing';
  /** Mail to post after the commit (the invitation). */
  mail?: MailMessage;
}

/**
 * Adds a person with roles: a new account by invitation (`linkFor` builds the mailed link) or
 * with a temporary password, or an existing account, which joins at once.
 */
export async function addMember(
  db: Database,
  actor: string,
  org: string,
  input: NewMember,
  linkFor: (tokenHash: string) => string,
): Promise<AddedMember> {
  if (input.mode === 'password') checkPasswordStrength(input.password);
  const passwordHash = input.mode === 'password' ? await hashPassword(input.password) : null;
  return translated(() =>
    db.transaction(async (tx) => {
      const scope = await requireAdminScope(tx, actor, org);
      const organization = scope.organizationName;
      await tx.query('select learning.check_wanted_roles($1, $2, null, $3::jsonb)', [
        actor,
        org,
        rolesJson(input.roles),
      ]);
      const metadata = { full_name: input.fullName };
      let userId: string;
      let outcome: AddedMember['outcome'];
      let mail: MailMessage | undefined;
      const existing = await findUserByEmail(tx, input.email);
      if (existing && (existing.email_confirmed_at || existing.last_sign_in_at)) {
        userId = existing.id;
        outcome = 'existing';
      } else if (input.mode === 'invite') {
        try {
          const invitation = await inviteUser(tx, {
            email: input.email,
            userMetadata: metadata,
            organization,
            linkFor,
          });
          userId = invitation.user.id;
          mail = invitation.mail;
        } catch (error) {
          if (error instanceof AccountExistsError)
            throw new PeopleError(409, 'conflict', error.message);
          throw error;
        }
        outcome = 'invited';
      } else if (existing) {
        // An invitation that was never accepted: the admin now sets the password instead.
        await tx.query(
          `update auth.users set encrypted_password = $2, email_confirmed_at = now(),
             raw_user_meta_data = raw_user_meta_data || $3::jsonb, updated_at = now() where id = $1`,
          [existing.id, passwordHash, JSON.stringify(metadata)],
        );
        await tx.query(
          `delete from auth.one_time_tokens where user_id = $1 and token_type = 'confirmation'`,
          [existing.id],
        );
        userId = existing.id;
        outcome = 'created';
      } else {
        const created = await createUser(tx, {
          email: input.email,
          passwordHash,
          userMetadata: metadata,
          confirmed: true,
        });
        userId = created.id;
        outcome = 'created';
      }
      await tx.query('select learning.add_member($1, $2, $3, $4::jsonb)', [
        actor,
        org,
        userId,
        rolesJson(input.roles),
      ]);
      return { member: await loadMember(tx, org, scope, userId), outcome, mail };
    }),
  );
}

/** Mails a new invitation link to a member who has not accepted theirs yet. */
export async function resendInvitation(
  db: Database,
  actor: string,
  org: string,
  member: string,
  linkFor: (tokenHash: string) => string,
): Promise<MailMessage> {
  return translated(() =>
    db.transaction(async (tx) => {
      const scope = await requireAdminScope(tx, actor, org);
      const organization = scope.organizationName;
      const current = await loadMember(tx, org, scope, member);
      if (current.status !== 'invited') {
        throw new PeopleError(
          409,
          'conflict',
          'This person has already accepted the invitation and signs in with their password',
        );
      }
      const invitation = await inviteUser(tx, {
        email: current.email,
        userMetadata: {},
        organization,
        linkFor,
      });
      return invitation.mail;
    }),
  );
}

export async function setMemberRoles(
  db: Database,
  actor: string,
  org: string,
  member: string,
  roles: readonly RoleAssignment[],
): Promise<OrgMember> {
  return translated(() =>
    db.transaction(async (tx) => {
      const scope = await requireAdminScope(tx, actor, org);
      await tx.query('select learning.set_member_roles($1, $2, $3, $4::jsonb)', [
        actor,
        org,
        member,
        rolesJson(roles),
      ]);
      return loadMember(tx, org, scope, member);
    }),
  );
}

export async function deactivateMember(
  db: Database,
  actor: string,
  org: string,
  member: string,
): Promise<{ member: OrgMember; suspended: boolean }> {
  return translated(() =>
    db.transaction(async (tx) => {
      const scope = await requireAdminScope(tx, actor, org);
      const { rows } = await tx.query<{ suspended: boolean }>(
        'select learning.deactivate_member($1, $2, $3) as suspended',
        [actor, org, member],
      );
      return { member: await loadMember(tx, org, scope, member), suspended: rows[0]!.suspended };
    }),
  );
}

export async function reactivateMember(
  db: Database,
  actor: string,
  org: string,
  member: string,
): Promise<OrgMember> {
  return translated(() =>
    db.transaction(async (tx) => {
      const scope = await requireAdminScope(tx, actor, org);
      await tx.query('select learning.reactivate_member($1, $2, $3)', [actor, org, member]);
      return loadMember(tx, org, scope, member);
    }),
  );
}
