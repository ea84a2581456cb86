/** One page of the organization's members, searched and filtered on the server. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { MemberPage, MemberQuery } from '@common/org-people';
import { callOrgPeople, orgPath } from './org-people-call';
import { orgAdminKeys } from './org-admin-keys';

export function getMembers(organizationId: string, query: MemberQuery): Promise<MemberPage> {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.role) params.set('role', query.role);
  if (query.status) params.set('status', query.status);
  params.set('page', String(query.page));
  return callOrgPeople<MemberPage>('GET', `${orgPath(organizationId)}/members?${params}`);
}

export function useMembers(organizationId: string, query: MemberQuery) {
  return useQuery({
    queryKey: orgAdminKeys.members(organizationId, query),
    queryFn: () => getMembers(organizationId, query),
    placeholderData: keepPreviousData,
  });
}
