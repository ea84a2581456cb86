import { describe, expect, it } from 'vitest';
import { workspaceKey } from '@/lib/app-session';
import type { Membership } from './api/get-memberships';
import { chooseWorkspace, workspaceLabel, workspaceRoleLabels, workspacesFor } from './workspaces';

const org = { organizationId: 'org-a', organizationName: 'Lyceum University', isOwner: false };

describe('workspaces', () => {
  it('is Personal mode for a user with no membership', () => {
    expect(workspacesFor([])).toEqual([{ kind: 'personal' }]);
    expect(workspaceLabel({ kind: 'personal' })).toBe('Personal mode');
  });

  it('offers the organization and each board, with every role held in the organization', () => {
    const memberships: Membership[] = [
      { ...org, boardId: null, boardName: null, role: 'instructor' },
      { ...org, boardId: 'arts', boardName: 'Faculty of Arts', role: 'learner' },
      { ...org, boardId: 'arts', boardName: 'Faculty of Arts', role: 'instructor' },
    ];
    const workspaces = workspacesFor(memberships);
    expect(workspaces.map(workspaceLabel)).toEqual([
      'Lyceum University',
      'Lyceum University — Faculty of Arts',
    ]);
    for (const w of workspaces) {
      expect(w.kind === 'organization' && [...w.roles].sort()).toEqual(['instructor', 'learner']);
    }
  });

  it('offers a member of boards only the whole organization too, and their boards', () => {
    const workspaces = workspacesFor(
      [
        { ...org, boardId: 'arts', boardName: 'Faculty of Arts', role: 'learner' },
        { ...org, boardId: 'science', boardName: 'Faculty of Science', role: 'learner' },
      ],
      [
        { id: 'arts', organizationId: 'org-a', name: 'Faculty of Arts' },
        { id: 'law', organizationId: 'org-a', name: 'Faculty of Law' },
        { id: 'science', organizationId: 'org-a', name: 'Faculty of Science' },
      ],
    );
    expect(workspaces.map(workspaceLabel)).toEqual([
      'Lyceum University',
      'Lyceum University — Faculty of Arts',
      'Lyceum University — Faculty of Science',
    ]);
  });

  it('offers the owner and organization-wide admins every board of the organization', () => {
    const boards = [
      { id: 'arts', organizationId: 'org-a', name: 'Faculty of Arts' },
      { id: 'science', organizationId: 'org-a', name: 'Faculty of Science' },
      { id: 'elsewhere', organizationId: 'org-b', name: 'Other board' },
    ];
    const owner = workspacesFor(
      [{ ...org, isOwner: true, boardId: null, boardName: null, role: 'org_admin' }],
      boards,
    );
    expect(owner.map(workspaceLabel)).toEqual([
      'Lyceum University',
      'Lyceum University — Faculty of Arts',
      'Lyceum University — Faculty of Science',
    ]);
    expect(owner.every((w) => w.kind === 'organization' && w.isOwner)).toBe(true);
    const admin = workspacesFor(
      [{ ...org, boardId: null, boardName: null, role: 'org_admin' }],
      boards,
    );
    expect(admin).toHaveLength(3);
    expect(admin.every((w) => w.kind === 'organization' && !w.isOwner)).toBe(true);
    // A board admin scopes to their own board only.
    const boardAdmin = workspacesFor(
      [{ ...org, boardId: 'arts', boardName: 'Faculty of Arts', role: 'org_admin' }],
      boards,
    );
    expect(boardAdmin.map(workspaceLabel)).toEqual([
      'Lyceum University',
      'Lyceum University — Faculty of Arts',
    ]);
    expect(boardAdmin.every((w) => w.kind === 'organization' && w.boardAdminOnly)).toBe(true);
    expect(
      boardAdmin.every(
        (w) =>
          w.kind === 'organization' &&
          JSON.stringify(w.adminBoards) ===
            JSON.stringify([{ id: 'arts', name: 'Faculty of Arts' }]),
      ),
    ).toBe(true);
    expect(owner.some((w) => w.kind === 'organization' && w.boardAdminOnly)).toBe(false);
    expect(admin.some((w) => w.kind === 'organization' && w.boardAdminOnly)).toBe(false);
  });

  it('keeps a stored choice that still exists and falls back to the first otherwise', () => {
    const workspaces = workspacesFor([
      { ...org, boardId: null, boardName: null, role: 'learner' },
      {
        organizationId: 'org-b',
        organizationName: 'Other',
        isOwner: false,
        boardId: null,
        boardName: null,
        role: 'learner',
      },
    ]);
    expect(chooseWorkspace(workspaces, workspaceKey(workspaces[1]!))).toBe(workspaces[1]);
    expect(chooseWorkspace(workspaces, 'org:gone:all')).toBe(workspaces[0]);
    expect(chooseWorkspace(workspaces, null)).toBe(workspaces[0]);
  });

  it('names the owner, and an admin of boards only as the admin of those boards', () => {
    const owner: Membership[] = [
      { ...org, isOwner: true, boardId: null, boardName: null, role: 'org_admin' },
    ];
    expect(workspaceRoleLabels(workspacesFor(owner)[0]!, owner)).toEqual(['Owner', 'Org Admin']);

    const boardAdmin: Membership[] = [
      { ...org, boardId: 'arts', boardName: 'Faculty of Arts', role: 'org_admin' },
      { ...org, boardId: null, boardName: null, role: 'instructor' },
    ];
    for (const workspace of workspacesFor(boardAdmin)) {
      expect(workspaceRoleLabels(workspace, boardAdmin).sort()).toEqual([
        'Board Admin of Faculty of Arts',
        'Instructor',
      ]);
    }
    const both: Membership[] = [
      ...boardAdmin,
      { ...org, boardId: null, boardName: null, role: 'org_admin' },
    ];
    expect(workspaceRoleLabels(workspacesFor(both)[0]!, both)).toContain('Org Admin');
    expect(workspaceRoleLabels({ kind: 'personal' }, [])).toEqual([]);
  });
});
