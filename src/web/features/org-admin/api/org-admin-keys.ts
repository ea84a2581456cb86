/**
 * Query keys of the org admin's screens, per organization. A write to people invalidates
 * `people`; enrolment writes invalidate `enrolments` (and people, whose roles an import may add).
 */
export const orgAdminKeys = {
  all: ['org-admin'] as const,
  organization: (organizationId: string) => [...orgAdminKeys.all, organizationId] as const,
  people: (organizationId: string) =>
    [...orgAdminKeys.organization(organizationId), 'people'] as const,
  members: (organizationId: string, query: object) =>
    [...orgAdminKeys.people(organizationId), query] as const,
  boards: (organizationId: string) =>
    [...orgAdminKeys.organization(organizationId), 'boards'] as const,
  courses: (organizationId: string) =>
    [...orgAdminKeys.organization(organizationId), 'courses'] as const,
  enrolments: (organizationId: string) =>
    [...orgAdminKeys.organization(organizationId), 'enrolments'] as const,
  enrolmentPage: (organizationId: string, query: object) =>
    [...orgAdminKeys.enrolments(organizationId), query] as const,
};
