/**
 * Who is using the learning app and in which workspace: the signed-in user and the
 * organization (and board) they chose, or Personal mode. The app shell (src/web/app) works
 * it out and provides it; every feature's screens read it to scope their queries, so no
 * feature depends on another for it.
 */
import { createContext, useContext } from 'react';

/** Roles as stored (`learner` is shown as "Student"). */
export type LearningRole = 'learner' | 'instructor' | 'org_admin' | 'compliance_officer';

export const roleLabels: Record<LearningRole, string> = {
  learner: 'Student',
  instructor: 'Instructor',
  org_admin: 'Org Admin',
  compliance_officer: 'Compliance Officer',
};

export type Workspace =
  | { kind: 'personal' }
  | {
      kind: 'organization';
      organizationId: string;
      organizationName: string;
      /** The board (faculty) chosen, or null for the whole organization. */
      boardId: string | null;
      boardName: string | null;
      /** The user's active roles in this organization. */
      roles: LearningRole[];
      /** The organization's owner (organizations.owner_id): manages boards and sees everyone. */
      isOwner: boolean;
      /**
       * Set when every org_admin membership held here is of a board: a board admin, who
       * governs those boards (their learners and instructors, enrolling them), not the
       * organization (decision 0100), so organization-wide admin screens are not theirs.
       */
      boardAdminOnly?: boolean;
      /** With boardAdminOnly: the boards they administer, whose people their admin screens show. */
      adminBoards?: { id: string; name: string }[];
    };

export interface AppSession {
  userId: string;
  email: string;
  workspace: Workspace;
  /**
   * A platform admin (`admin` in user_roles with no organization, named in the token's
   * app_metadata.roles): sees the compliance console and the data request queue for every
   * organization. Only a hint for the sidebar; row-level security decides what they read. Absent: not one.
   */
  platformAdmin?: boolean;
}

export const AppSessionContext = createContext<AppSession | null>(null);

export function useAppSession(): AppSession {
  const session = useContext(AppSessionContext);
  if (!session) throw new Error('useAppSession must be used inside the app shell.');
  return session;
}

/** A stable name for the workspace, for query keys and storage. */
export function workspaceKey(workspace: Workspace): string {
  return workspace.kind === 'personal'
    ? 'personal'
    : `org:${workspace.organizationId}:${workspace.boardId ?? 'all'}`;
}

/**
 * The root of the app shell's query keys (memberships and boards for the switcher). A screen
 * that adds, renames or removes a board invalidates it so the switcher follows.
 */
export const appShellKeys = { all: ['app-shell'] as const };
