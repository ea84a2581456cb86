/**
 * Query keys of the owner's screens, per organization. Every write invalidates `organization`,
 * since a board's counts, its admins, the distribution and the people list all follow from
 * the same rows.
 */
export const ownerKeys = {
  all: ['org-owner'] as const,
  organization: (organizationId: string) => [...ownerKeys.all, organizationId] as const,
  boards: (organizationId: string) =>
    [...ownerKeys.organization(organizationId), 'boards'] as const,
  boardAdmins: (organizationId: string, boardId: string) =>
    [...ownerKeys.organization(organizationId), 'board-admins', boardId] as const,
  boardCourses: (organizationId: string, boardId: string) =>
    [...ownerKeys.organization(organizationId), 'board-courses', boardId] as const,
  distribution: (organizationId: string, search: string, boardId: string | null, page: number) =>
    [...ownerKeys.organization(organizationId), 'distribution', search, boardId, page] as const,
  people: (organizationId: string, search: string, boardId: string | null, page: number) =>
    [...ownerKeys.organization(organizationId), 'people', search, boardId, page] as const,
};

/** A Supabase error as an Error with the service's message (what the screens show). */
export function serviceError(error: { message: string }): Error {
  return new Error(error.message);
}
