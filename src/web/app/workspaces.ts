/**
 * The workspaces a user can switch between, built from their memberships: each organization
 * (and each board they belong to in it), or Personal mode when they have none. The choice is
 * remembered per user in localStorage, so it survives reloads and is never shared between
 * two people on one browser.
 */
import type { LearningRole, Workspace } from '@/lib/app-session';
import { workspaceKey } from '@/lib/app-session';
import type { Membership } from './api/get-memberships';

export function workspacesFor(memberships: readonly Membership[]): Workspace[] {
  if (memberships.length === 0) return [{ kind: 'personal' }];
  const rolesByOrganization = new Map<string, Set<LearningRole>>();
  for (const m of memberships) {
    const roles = rolesByOrganization.get(m.organizationId) ?? new Set<LearningRole>();
    roles.add(m.role);
    rolesByOrganization.set(m.organizationId, roles);
  }
  const byKey = new Map<string, Workspace>();
  for (const m of memberships) {
    const roles = [...(rolesByOrganization.get(m.organizationId) ?? [])];
    const whole: Workspace = {
      kind: 'organization',
      organizationId: m.organizationId,
      organizationName: m.organizationName,
      boardId: null,
      boardName: null,
      roles,
    };
    if (m.boardId === null) byKey.set(workspaceKey(whole), whole);
    else {
      const board: Workspace = { ...whole, boardId: m.boardId, boardName: m.boardName };
      byKey.set(workspaceKey(board), board);
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
