/**
 * Query keys of the organization admin's analytics, reports and settings. Every key carries
 * the user and the organization, so switching account or workspace never shows another's
 * figures; a change to the organization invalidates `organization(…)` and everything under it.
 */
export const insightsKeys = {
  all: ['org-insights'] as const,
  organization: (userId: string, organizationId: string) =>
    [...insightsKeys.all, userId, organizationId] as const,
  access: (userId: string, organizationId: string) =>
    [...insightsKeys.organization(userId, organizationId), 'access'] as const,
  totals: (userId: string, organizationId: string, boardId: string | null) =>
    [...insightsKeys.organization(userId, organizationId), 'totals', boardId] as const,
  courses: (
    userId: string,
    organizationId: string,
    boardId: string | null,
    search: string,
    page: number,
  ) =>
    [
      ...insightsKeys.organization(userId, organizationId),
      'courses',
      boardId,
      search,
      page,
    ] as const,
  boards: (userId: string, organizationId: string) =>
    [...insightsKeys.organization(userId, organizationId), 'boards'] as const,
  report: (userId: string, organizationId: string, filters: object, limit: number) =>
    [...insightsKeys.organization(userId, organizationId), 'report', filters, limit] as const,
  filterOptions: (userId: string, organizationId: string) =>
    [...insightsKeys.organization(userId, organizationId), 'filter-options'] as const,
  settings: (userId: string, organizationId: string) =>
    [...insightsKeys.organization(userId, organizationId), 'settings'] as const,
};

/** A Supabase error as an Error carrying the service's sentence (what the screens show). */
export function serviceError(error: { message: string }): Error {
  return new Error(error.message);
}
