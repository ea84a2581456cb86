import { describe, expect, it } from 'vitest';
import { activeNavPath, navFor } from './app-nav';

const organization = (roles: ('learner' | 'instructor' | 'org_admin' | 'compliance_officer')[]) =>
  ({
    kind: 'organization',
    organizationId: 'org',
    organizationName: 'Lyceum University',
    boardId: null,
    boardName: null,
    roles,
  }) as const;

describe('app navigation', () => {
  it('shows a student and a Personal-mode user the dashboard and the course library', () => {
    expect(navFor({ kind: 'personal' }).map((i) => i.label)).toEqual(['Dashboard', 'Courses']);
    expect(navFor(organization(['learner'])).map((i) => i.label)).toEqual(['Dashboard', 'Courses']);
  });

  it('merges the links of every role held, each once', () => {
    expect(navFor(organization(['compliance_officer', 'learner'])).map((i) => i.path)).toEqual([
      '/app',
      '/app/courses',
    ]);
    expect(navFor(organization(['compliance_officer'])).map((i) => i.path)).toEqual(['/app']);
  });

  it('marks the entry a nested page belongs to', () => {
    const items = navFor({ kind: 'personal' });
    expect(activeNavPath(items, '/app')).toBe('/app');
    expect(activeNavPath(items, '/app/courses/3f1c2a9e-0d7b-4c55-9a51-2b8e6f0c1d23')).toBe(
      '/app/courses',
    );
  });
});
