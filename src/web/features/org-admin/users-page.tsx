/**
 * The org admin's users: the organization's members searched by name or address and filtered
 * by role and status on the server, a person added by invitation or with a temporary
 * password, roles changed, people deactivated and reactivated (decision 0130). Search, filters
 * and page live in the address, so Back works and a view can be shared.
 */
import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { MailPlus, Search, UserPlus } from 'lucide-react';
import { toast } from 'sonner';
import {
  MEMBERS_PAGE_SIZE,
  memberQuerySchema,
  memberRoleLabels,
  memberRoles,
  memberStatuses,
  searchTextSchema,
  type MemberQuery,
  type MemberStatus,
  type OrgMember,
} from '@common/org-people';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Pager } from '@/components/ui/pager';
import { useAppSession } from '@/lib/app-session';
import { useBoards } from './api/get-boards-and-courses';
import { useMembers } from './api/get-members';
import { useResendInvitation, useSetMemberActive } from './api/member-mutations';
import {
  adminBoardIds,
  AdminOnly,
  FieldError,
  NativeSelect,
  pageFrom,
  plural,
  RoleBadges,
  scopeName,
  type AdminWorkspace,
} from './admin-ui';
import { AddPersonDialog, ChangeRolesDialog, ConfirmDialog } from './user-dialogs';

const statusLabels: Record<MemberStatus, string> = {
  active: 'Active',
  deactivated: 'Deactivated',
  invited: 'Invited',
};

export function UsersPage() {
  return <AdminOnly title="Users">{(workspace) => <Users workspace={workspace} />}</AdminOnly>;
}

function Users({ workspace }: { workspace: AdminWorkspace }) {
  const [params, setParams] = useSearchParams();
  const query: MemberQuery = memberQuerySchema.parse({
    q: params.get('q') ?? '',
    role: params.get('role') ?? '',
    status: params.get('status') ?? '',
    page: pageFrom(params),
  });
  const members = useMembers(workspace.organizationId, query);
  const boards = useBoards(workspace.organizationId, adminBoardIds(workspace));
  const [draft, setDraft] = useState(query.q);
  const [searchError, setSearchError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const searchId = useId();
  const roleId = useId();
  const statusId = useId();

  function update(next: Partial<MemberQuery>) {
    const merged = { ...query, page: 1, ...next };
    const values: Record<string, string> = {};
    if (merged.q) values.q = merged.q;
    if (merged.role) values.role = merged.role;
    if (merged.status) values.status = merged.status;
    if (merged.page > 1) values.page = String(merged.page);
    setParams(values);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = searchTextSchema.safeParse(draft);
    if (!parsed.success) {
      setSearchError(parsed.error.issues[0]?.message ?? 'Check the search.');
      return;
    }
    setSearchError(null);
    update({ q: parsed.data });
  }

  const total = members.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / MEMBERS_PAGE_SIZE));
  const filtered = Boolean(query.q || query.role || query.status);

  return (
    <AppPage
      wide
      title="Users"
      intro={`The people of ${scopeName(workspace)}: invite them, change their roles, deactivate and reactivate them.`}
      actions={
        <Button onClick={() => setAdding(true)}>
          <UserPlus aria-hidden="true" />
          Add a person
        </Button>
      }
    >
      <AddPersonDialog
        open={adding}
        onOpenChange={setAdding}
        workspace={workspace}
        boards={boards.data ?? []}
      />
      <form
        role="search"
        onSubmit={submit}
        noValidate
        className="grid gap-3 sm:grid-cols-[1fr_12rem_12rem_auto] sm:items-end"
      >
        <div className="grid min-w-0 gap-2">
          <Label htmlFor={searchId}>Search by name or email</Label>
          <Input
            id={searchId}
            type="search"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            aria-invalid={searchError ? true : undefined}
            aria-describedby={searchError ? `${searchId}-error` : undefined}
          />
        </div>
        <div className="grid min-w-0 gap-2">
          <Label htmlFor={roleId}>Role</Label>
          <NativeSelect
            id={roleId}
            value={query.role}
            onChange={(event) => update({ role: event.target.value as MemberQuery['role'] })}
          >
            <option value="">Every role</option>
            {memberRoles.map((role) => (
              <option key={role} value={role}>
                {memberRoleLabels[role]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid min-w-0 gap-2">
          <Label htmlFor={statusId}>Status</Label>
          <NativeSelect
            id={statusId}
            value={query.status}
            onChange={(event) => update({ status: event.target.value as MemberQuery['status'] })}
          >
            <option value="">Any status</option>
            {memberStatuses.map((status) => (
              <option key={status} value={status}>
                {statusLabels[status]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <Button type="submit" variant="outline">
          <Search aria-hidden="true" />
          Search
        </Button>
        <div className="sm:col-span-4">
          <FieldError id={`${searchId}-error`} message={searchError} />
        </div>
      </form>
      <Section title="Members" id="members">
        {members.isPending ? (
          <LoadingBlock label="Loading members…" />
        ) : members.isError ? (
          <LoadError
            message={`Could not load the members: ${members.error.message}`}
            onRetry={() => void members.refetch()}
          />
        ) : members.data.members.length === 0 ? (
          <EmptyState
            action={
              filtered ? (
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => {
                    setDraft('');
                    setParams({});
                  }}
                >
                  Show everyone
                </Button>
              ) : (
                <Button size="sm" onClick={() => setAdding(true)}>
                  <UserPlus aria-hidden="true" />
                  Add a person
                </Button>
              )
            }
          >
            {filtered
              ? 'Nobody matches this search and these filters. Try a shorter word or another filter.'
              : `Nobody belongs to ${scopeName(workspace)} yet. Invite the first person by email.`}
          </EmptyState>
        ) : (
          <div className="grid gap-3">
            <p className="text-sm text-muted-foreground" aria-live="polite">
              {plural(total, 'person', 'people')}
              {query.q ? ` matching “${query.q}”` : ''} · page {query.page} of {pages}
            </p>
            <ul className="grid gap-2">
              {members.data.members.map((member) => (
                <MemberItem
                  key={member.userId}
                  member={member}
                  workspace={workspace}
                  boards={boards.data ?? []}
                />
              ))}
            </ul>
            <Pager
              label="Member pages"
              page={query.page - 1}
              pages={pages}
              onPage={(next) => update({ ...query, page: next + 1 })}
            />
          </div>
        )}
      </Section>
    </AppPage>
  );
}

function MemberItem({
  member,
  workspace,
  boards,
}: {
  member: OrgMember;
  workspace: AdminWorkspace;
  boards: Parameters<typeof ChangeRolesDialog>[0]['boards'];
}) {
  const session = useAppSession();
  const setActive = useSetMemberActive(workspace.organizationId);
  const resend = useResendInvitation(workspace.organizationId);
  const [changing, setChanging] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const name = member.fullName ?? member.email;
  const isSelf = member.userId === session.userId;
  const protectedByOwner =
    !workspace.isOwner && member.roles.some((role) => role.role === 'org_admin');
  const canManage = !member.isOwner && !isSelf && !protectedByOwner;
  const deactivated = member.status === 'deactivated';

  function toggleActive() {
    setActive.mutate(
      { userId: member.userId, active: deactivated },
      {
        onSuccess: (result) => {
          setConfirming(false);
          toast.success(
            deactivated
              ? `${name} is active again and can sign in.`
              : result.suspended
                ? `${name} is deactivated and can no longer sign in. Their data is kept.`
                : `${name} is deactivated here; they still belong to another organization.`,
          );
        },
        onError: (error) => toast.error(error.message),
      },
    );
  }

  return (
    <li className="grid gap-3 rounded-lg border p-3 md:grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)_auto] md:items-start md:gap-4">
      <div className="min-w-0">
        <p className="font-medium break-words">{name}</p>
        <p className="text-sm break-all text-muted-foreground">{member.email}</p>
        <div className="mt-1.5 flex flex-wrap gap-1.5">
          <Badge
            variant={deactivated ? 'outline' : member.status === 'invited' ? 'outline' : 'default'}
          >
            {statusLabels[member.status]}
          </Badge>
          {member.isOwner && <Badge variant="secondary">Owner</Badge>}
          {isSelf && <Badge variant="secondary">You</Badge>}
        </div>
      </div>
      <RoleBadges roles={member.roles} label={`Roles of ${name}`} />
      <div className="flex flex-wrap gap-2 md:justify-end">
        {canManage ? (
          <>
            <Button size="sm" variant="outline" onClick={() => setChanging(true)}>
              Change roles<span className="sr-only"> of {name}</span>
            </Button>
            {member.status === 'invited' && (
              <Button
                size="sm"
                variant="outline"
                disabled={resend.isPending}
                onClick={() =>
                  resend.mutate(member.userId, {
                    onSuccess: () =>
                      toast.success(`A new invitation is on its way to ${member.email}.`),
                    onError: (error) => toast.error(error.message),
                  })
                }
              >
                <MailPlus aria-hidden="true" />
                {resend.isPending ? 'Sending…' : 'Send the invitation again'}
                <span className="sr-only"> to {name}</span>
              </Button>
            )}
            <Button
              size="sm"
              variant={deactivated ? 'default' : 'outline'}
              onClick={() => (deactivated ? toggleActive() : setConfirming(true))}
              disabled={setActive.isPending}
            >
              {setActive.isPending
                ? deactivated
                  ? 'Reactivating…'
                  : 'Deactivating…'
                : deactivated
                  ? 'Reactivate'
                  : 'Deactivate'}
              <span className="sr-only"> {name}</span>
            </Button>
          </>
        ) : (
          <p className="text-sm text-muted-foreground">
            {member.isOwner
              ? 'The owner’s roles are theirs to change.'
              : isSelf
                ? 'Ask the owner or another admin to change your roles.'
                : 'Only the owner changes an org admin.'}
          </p>
        )}
      </div>
      {changing && (
        <ChangeRolesDialog
          open={changing}
          onOpenChange={setChanging}
          member={member}
          workspace={workspace}
          boards={boards}
        />
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Deactivate ${name}?`}
        description={`${name} loses access to ${scopeName(workspace)} at once. If they belong to no other organization, they can no longer sign in. Their enrolments, progress and results are kept, and reactivating restores them.`}
        confirmLabel={setActive.isPending ? 'Deactivating…' : 'Deactivate'}
        pending={setActive.isPending}
        onConfirm={toggleActive}
      />
    </li>
  );
}
