/** What the org admin's screens share beyond components/app-page: the admin check and fields. */
import type { ComponentProps, ReactNode } from 'react';
import { memberRoleLabels, type MemberRoleRow } from '@common/org-people';
import { AppPage } from '@/components/app-page';
import { Badge } from '@/components/ui/badge';
import { Notice } from '@/components/ui/notice';
import { useAppSession, type Workspace } from '@/lib/app-session';
import { cn } from '@/lib/utils';

export type AdminWorkspace = Extract<Workspace, { kind: 'organization' }>;

/**
 * Renders the page for an organization's admins, its owner and board admins (who see their
 * boards' people only, decision 0142); anyone else learns whose screen it is. The server
 * refuses them either way (decision 0130); this spares a dead end.
 */
export function AdminOnly({
  title,
  children,
}: {
  title: string;
  children: (workspace: AdminWorkspace) => ReactNode;
}) {
  const { workspace } = useAppSession();
  if (
    workspace.kind !== 'organization' ||
    !(workspace.isOwner || workspace.roles.includes('org_admin'))
  ) {
    return (
      <AppPage title={title}>
        <Notice tone="info">
          This screen belongs to an organization&rsquo;s administrators. Choose an organization you
          administer in the workspace menu, or ask your organization&rsquo;s admin.
        </Notice>
      </AppPage>
    );
  }
  return <>{children(workspace)}</>;
}

/** The boards a board admin governs, or null for an organization-wide admin or the owner. */
export function adminBoardIds(workspace: AdminWorkspace): string[] | null {
  return workspace.boardAdminOnly ? (workspace.adminBoards ?? []).map((b) => b.id) : null;
}

/** Whose people the screens manage: the organization, or a board admin's boards by name. */
export function scopeName(workspace: AdminWorkspace): string {
  if (!workspace.boardAdminOnly) return workspace.organizationName;
  const names = (workspace.adminBoards ?? []).map((b) => b.name).join(', ');
  return `${names} (${workspace.organizationName})`;
}

export function FieldError({ id, message }: { id: string; message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="text-sm text-destructive">
      {message}
    </p>
  );
}

/** A native select styled like the inputs: keyboard and screen readers work as they expect. */
export function NativeSelect({ className, ...props }: ComponentProps<'select'>) {
  return (
    <select
      className={cn(
        'h-9 w-full min-w-0 rounded-md border border-input bg-background px-2 text-sm shadow-xs focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none aria-invalid:border-destructive',
        className,
      )}
      {...props}
    />
  );
}

export function roleText(role: Pick<MemberRoleRow, 'role' | 'boardId' | 'boardName'>): string {
  const label =
    role.role === 'org_admin' && role.boardId ? 'Board Admin' : memberRoleLabels[role.role];
  return `${label} · ${role.boardName ?? 'whole organization'}`;
}

export function RoleBadges({ roles, label }: { roles: MemberRoleRow[]; label: string }) {
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label={label}>
      {roles.map((role) => (
        <li key={`${role.role}:${role.boardId ?? ''}`}>
          <Badge variant="secondary" className="whitespace-normal text-left">
            {roleText(role)}
          </Badge>
        </li>
      ))}
    </ul>
  );
}

export { plural } from '@/lib/plural';

export function pageFrom(params: URLSearchParams): number {
  const page = Number(params.get('page') ?? '1');
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}
