import { describe, expect, it } from 'vitest';
import { workspaceKey } from '@/lib/app-session';
import type { Membership } from './api/get-memberships';
import { chooseWorkspace, workspaceLabel, workspacesFor } from './workspaces';

const org = { organizationId: 'org-a', organizationName: 'Lyceum University' };

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

  it('keeps a stored choice that still exists and falls back to the first otherwise', () => {
    const workspaces = workspacesFor([
      { ...org, boardId: null, boardName: null, role: 'learner' },
      {
        organizationId: 'org-b',
        organizationName: 'Other',
        boardId: null,
        boardName: null,
        role: 'learner',
      },
    ]);
    expect(chooseWorkspace(workspaces, workspaceKey(workspaces[1]!))).toBe(workspaces[1]);
    expect(chooseWorkspace(workspaces, 'org:gone:all')).toBe(workspaces[0]);
    expect(chooseWorkspace(workspaces, null)).toBe(workspaces[0]);
  });
});
