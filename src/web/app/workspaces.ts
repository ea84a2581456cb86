/**
 * The workspaces a user can switch between, built from their memberships: each organization
 * as a whole, then each board they may scope to in it, or Personal mode when they have none.
 * A member picks among the boards they belong to; the owner and organization-wide admins,
 * who oversee every board, among all of the organization's boards (decision 0141). The choice
 * is remembered per user in localStorage, so it survives reloads and is never shared between
 * two people on one browser.
 */
import type { LearningRole, Workspace } from '@/lib/app-session';
import { roleLabels, workspaceKey } from '@/lib/app-session';
import { consentAllows } from '@/lib/consent-allows';
import type { Membership, OrganizationBoard } from './api/get-memberships';

export function workspacesFor(
  memberships: readonly Membership[],
  boards: readonly OrganizationBoard[] = [],
): Workspace[] {
  if (memberships.length === 0) return [{ kind: 'personal' }];
  const rolesByOrganization = new Map<string, Set<LearningRole>>();
  const overseers = new Set<string>();
  for (const m of memberships) {
    const roles = rolesByOrganization.get(m.organizationId) ?? new Set<LearningRole>();
    roles.add(m.role);
    rolesByOrganization.set(m.organizationId, roles);
    if (m.isOwner || (m.role === 'org_admin' && m.boardId === null))
      overseers.add(m.organizationId);
  }
  const boardAdminOnly = (organizationId: string) =>
    !overseers.has(organizationId) &&
    Boolean(rolesByOrganization.get(organizationId)?.has('org_admin'));
  const byKey = new Map<string, Workspace>();
  const add = (workspace: Workspace) => {
    const key = workspaceKey(workspace);
    if (!byKey.has(key)) byKey.set(key, workspace);
  };
  for (const m of memberships) {
    const whole: Workspace = {
      kind: 'organization',
      organizationId: m.organizationId,
      organizationName: m.organizationName,
      boardId: null,
      boardName: null,
      roles: [...(rolesByOrganization.get(m.organizationId) ?? [])],
      isOwner: m.isOwner,
      ...(boardAdminOnly(m.organizationId)
        ? {
            boardAdminOnly: true,
            adminBoards: memberships
              .filter(
                (a) =>
                  a.organizationId === m.organizationId &&
                  a.role === 'org_admin' &&
                  a.boardId !== null,
              )
              .map((a) => ({ id: a.boardId!, name: a.boardName ?? 'a board' })),
          }
        : {}),
    };
    add(whole);
    if (overseers.has(m.organizationId)) {
      for (const board of boards.filter((b) => b.organizationId === m.organizationId)) {
        add({ ...whole, boardId: board.id, boardName: board.name });
      }
    } else if (m.boardId !== null) {
      add({ ...whole, boardId: m.boardId, boardName: m.boardName });
    }
  }
  return [...byKey.values()];
}

export function workspaceLabel(workspace: Workspace): string {
  if (workspace.kind === 'personal') return 'Personal mode';
  return workspace.boardName
    ? `${workspace.organizationName} — ${workspace.boardName}`
    : workspace.organizationName;
}

/**
 * What the sidebar says the user is in a workspace: "Owner" for the owner, and each role's
 * label, except that an admin of boards only (org_admin memberships with a board, decision
 * 0100) is named "Board Admin of …", since they govern those boards and not the organization.
 */
export function workspaceRoleLabels(
  workspace: Workspace,
  memberships: readonly Membership[],
): string[] {
  if (workspace.kind === 'personal') return [];
  const here = memberships.filter((m) => m.organizationId === workspace.organizationId);
  const labels = workspace.isOwner ? ['Owner'] : [];
  for (const role of workspace.roles) {
    const boardsOnly =
      role === 'org_admin' &&
      !workspace.isOwner &&
      !here.some((m) => m.role === 'org_admin' && m.boardId === null);
    if (boardsOnly) {
      const boards = here
        .filter((m) => m.role === 'org_admin' && m.boardId !== null)
        .map((m) => m.boardName ?? 'a board');
      labels.push(`Board Admin of ${boards.join(', ')}`);
    } else {
      labels.push(roleLabels[role]);
    }
  }
  return [...new Set(labels)];
}

const storageKey = (userId: string) => `lyceum.workspace.${userId}`;

export function readStoredWorkspace(userId: string): string | null {
  try {
    return localStorage.getItem(storageKey(userId));
  } catch {
    // Storage can be blocked (privacy settings); the first workspace is used then.
    return null;
  }
}

export function storeWorkspace(userId: string, key: string): void {
  // Remembering the choice is functional storage (decision 0410).
  if (!consentAllows('functional')) return;
  try {
    localStorage.setItem(storageKey(userId), key);
  } catch {
    // Not remembered across reloads when storage is blocked; the choice still applies now.
  }
}

/** The stored choice if it is still one of the user's workspaces, else the first. */
export function chooseWorkspace(
  workspaces: readonly Workspace[],
  stored: string | null,
): Workspace {
  return workspaces.find((w) => workspaceKey(w) === stored) ?? workspaces[0]!;
}
