import { describe, expect, it } from 'vitest';
import { activeNavPath, navByRole, navFor } from './app-nav';

const organization = (
  roles: ('learner' | 'instructor' | 'org_admin' | 'compliance_officer')[],
  isOwner = false,
) =>
  ({
    kind: 'organization',
    organizationId: 'org',
    organizationName: 'Lyceum University',
    boardId: null,
    boardName: null,
    roles,
    isOwner,
  }) as const;

const ownerScreens = ['/app/owner/boards', '/app/owner/distribution', '/app/owner/people'];
const teachingScreens = ['/app/teaching', '/app/teaching/grading', '/app/adapt'];
/** Everyone's own screens, listed last. */
const ownScreens = ['/app/settings', '/app/plans', '/app/privacy'];
const adminScreens = [
  '/app/org/users',
  '/app/org/enrolments',
  '/app/org/analytics',
  '/app/org/thresholds',
  '/app/org/reports',
  '/app/org/settings',
  '/app/org/api-keys',
  '/app/org/sso',
  '/app/privacy-requests',
  '/app/iep',
];

describe('app navigation', () => {
  it('shows a student the dashboard, the course library, the reading library, notes, flashcards and offline study', () => {
    expect(navFor(organization(['learner'])).map((i) => i.label)).toEqual([
      'Dashboard',
      'Courses',
      'Library',
      'Study Coach',
      'Notes',
      'Flashcards',
      'Offline study',
      'Progress',
      'Settings',
      'Plans',
      'Privacy',
    ]);
  });

  it('shows the course editor to those who author: instructors, org admins, Personal mode', () => {
    for (const workspace of [
      { kind: 'personal' } as const,
      organization(['instructor']),
      organization(['learner', 'org_admin']),
    ]) {
      expect(
        navFor(workspace)
          .map((i) => i.label)
          .slice(0, 5),
      ).toEqual(['Dashboard', 'Courses', 'Library', 'Study Coach', 'Course Editor']);
    }
    expect(navFor(organization(['learner'])).map((i) => i.path)).not.toContain(
      '/app/course-editor',
    );
    expect(navFor(organization(['compliance_officer'])).map((i) => i.label)).toEqual([
      'Dashboard',
      'Compliance',
      'Settings',
      'Plans',
      'Privacy',
    ]);
  });

  it('merges the links of every role held, each once', () => {
    expect(navFor(organization(['compliance_officer', 'learner'])).map((i) => i.path)).toEqual([
      '/app',
      '/app/courses',
      '/app/library',
      '/app/coach',
      '/app/notes',
      '/app/flashcards',
      '/app/offline',
      '/app/progress',
      '/app/compliance',
      ...ownScreens,
    ]);
    expect(navFor(organization(['compliance_officer'])).map((i) => i.path)).toEqual([
      '/app',
      '/app/compliance',
      ...ownScreens,
    ]);
  });

  it("shows the owner's screens to the owner only, after the links of their roles", () => {
    expect(navFor(organization(['org_admin'], true)).map((i) => i.path)).toEqual([
      '/app',
      '/app/courses',
      '/app/library',
      '/app/coach',
      '/app/course-editor',
      ...teachingScreens,
      ...adminScreens,
      ...ownerScreens,
      ...ownScreens,
    ]);
    expect(navFor(organization(['org_admin'], true)).map((i) => i.label)).toEqual([
      'Dashboard',
      'Courses',
      'Library',
      'Study Coach',
      'Course Editor',
      'Teaching',
      'Grading',
      'LE Adapt',
      'Users',
      'Enrolments',
      'Analytics',
      'Thresholds',
      'Reports',
      'Organization settings',
      'API keys',
      'Single sign-on',
      'Data requests',
      'IEP documents',
      'Boards',
      'Course distribution',
      'All users',
      'Settings',
      'Plans',
      'Privacy',
    ]);
    // An organization-wide admin, a board admin and everyone else: none of them.
    for (const roles of [
      ['org_admin'],
      ['instructor', 'learner'],
      ['compliance_officer'],
    ] as const) {
      const paths = navFor(organization([...roles])).map((i) => i.path);
      for (const path of ownerScreens) expect(paths).not.toContain(path);
    }
    for (const [role, keys] of Object.entries(navByRole)) {
      if (role !== 'owner') expect(keys, role).not.toContain('boards');
    }
  });

  it("gives an organization admin the organization's analytics, thresholds, reports and settings", () => {
    expect(navFor(organization(['org_admin'])).map((i) => i.path)).toEqual([
      '/app',
      '/app/courses',
      '/app/library',
      '/app/coach',
      '/app/course-editor',
      ...teachingScreens,
      ...adminScreens,
      ...ownScreens,
    ]);
    expect(navFor(organization(['instructor', 'learner'])).map((i) => i.path)).not.toContain(
      '/app/org/analytics',
    );
  });

  it("gives an admin of boards only their board's people and enrolments, not the organization admin's screens", () => {
    const orgAdmin = navFor(organization(['org_admin'])).map((i) => i.path);
    const boardAdmin = navFor({ ...organization(['org_admin']), boardAdminOnly: true }).map(
      (i) => i.path,
    );
    expect(boardAdmin).toEqual([
      '/app',
      '/app/courses',
      '/app/adapt',
      '/app/org/users',
      '/app/org/enrolments',
      ...ownScreens,
    ]);
    expect(orgAdmin.length).toBeGreaterThan(boardAdmin.length);
    // Their other roles still count.
    const teaching = navFor({ ...organization(['org_admin', 'instructor']), boardAdminOnly: true });
    expect(teaching.map((i) => i.path)).toEqual(
      expect.arrayContaining(navFor(organization(['instructor'])).map((i) => i.path)),
    );
    expect(teaching.map((i) => i.path)).not.toContain('/app/org/analytics');
  });

  it('shows instructors and organization admins their teaching screens', () => {
    for (const role of ['instructor', 'org_admin'] as const) {
      const paths = navFor(organization([role])).map((i) => i.path);
      expect(paths).toContain('/app/teaching');
      expect(paths).toContain('/app/teaching/grading');
    }
    expect(
      navFor(organization(['learner', 'compliance_officer'])).map((i) => i.path),
    ).not.toContain('/app/teaching');
    const items = navFor(organization(['instructor']));
    expect(activeNavPath(items, '/app/teaching/grading/3f1c2a9e-0d7b-4c55-9a51-2b8e6f0c1d23')).toBe(
      '/app/teaching/grading',
    );
  });

  it('gives a platform admin the compliance console, the data request queue and the coupons in any workspace', () => {
    const plain = navFor({ kind: 'personal' }).map((i) => i.path);
    const admin = navFor({ kind: 'personal' }, true).map((i) => i.path);
    expect(admin.filter((path) => !plain.includes(path))).toEqual([
      '/app/privacy-requests',
      '/app/compliance',
      '/app/admin/coupons',
    ]);
    expect(admin.filter((path) => plain.includes(path))).toEqual(plain);
    expect(admin.slice(-ownScreens.length)).toEqual(ownScreens);
    const learner = navFor(organization(['learner']), true).map((i) => i.path);
    expect(learner).toContain('/app/compliance');
    expect(learner).toContain('/app/privacy-requests');
    for (const roles of [['learner'], ['instructor'], ['org_admin']] as const) {
      expect(navFor(organization([...roles])).map((i) => i.path)).not.toContain('/app/compliance');
    }
  });

  it('marks the entry a nested page belongs to', () => {
    const items = navFor({ kind: 'personal' });
    expect(activeNavPath(items, '/app')).toBe('/app');
    expect(activeNavPath(items, '/app/courses/3f1c2a9e-0d7b-4c55-9a51-2b8e6f0c1d23')).toBe(
      '/app/courses',
    );
    const owner = navFor(organization(['org_admin'], true));
    expect(activeNavPath(owner, '/app/owner/boards/3f1c2a9e-0d7b-4c55-9a51-2b8e6f0c1d23')).toBe(
      '/app/owner/boards',
    );
  });
});
