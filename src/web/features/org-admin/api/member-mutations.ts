/**
 * The writes of the people screen: add (invite or create), change roles, deactivate,
 * reactivate, send the invitation again. Each refreshes the organization's member lists.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NewMember, OrgMember, RoleAssignment } from '@common/org-people';
import { callOrgPeople, orgPath } from './org-people-call';
import { orgAdminKeys } from './org-admin-keys';

export interface AddedMember {
  member: OrgMember;
  outcome: 'invited' | 'created' | 'existing';
}

function useMemberMutation<I, O>(organizationId: string, run: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: orgAdminKeys.organization(organizationId) }),
  });
}

const memberPath = (organizationId: string, userId: string) =>
  `${orgPath(organizationId)}/members/${encodeURIComponent(userId)}`;

export function useAddMember(organizationId: string) {
  return useMemberMutation(organizationId, (input: NewMember) =>
    callOrgPeople<AddedMember>('POST', `${orgPath(organizationId)}/members`, { ...input }),
  );
}

export function useSetMemberRoles(organizationId: string) {
  return useMemberMutation(
    organizationId,
    ({ userId, roles }: { userId: string; roles: RoleAssignment[] }) =>
      callOrgPeople<{ member: OrgMember }>('PUT', `${memberPath(organizationId, userId)}/roles`, {
        roles,
      }),
  );
}

export function useSetMemberActive(organizationId: string) {
  return useMemberMutation(
    organizationId,
    ({ userId, active }: { userId: string; active: boolean }) =>
      callOrgPeople<{ member: OrgMember; suspended?: boolean }>(
        'POST',
        `${memberPath(organizationId, userId)}/${active ? 'reactivate' : 'deactivate'}`,
      ),
  );
}

export function useResendInvitation(organizationId: string) {
  return useMemberMutation(organizationId, (userId: string) =>
    callOrgPeople<{ sent: boolean }>('POST', `${memberPath(organizationId, userId)}/invitation`),
  );
}
