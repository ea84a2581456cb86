/**
 * Enrolments of the organization: the list (the endpoint, which shows and searches addresses),
 * one person (a one-line import, so its checks and messages are the import's), a whole board
 * (`enroll_board`), unenrolling (row-level security lets admins delete), and the CSV import.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EnrolmentPage, EnrolmentQuery, ImportReport } from '@common/org-people';
import { getSupabase } from '@/lib/supabase';
import { callOrgPeople, OrgPeopleError, orgPath } from './org-people-call';
import { orgAdminKeys } from './org-admin-keys';

export function getEnrolments(
  organizationId: string,
  query: EnrolmentQuery,
): Promise<EnrolmentPage> {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.courseId) params.set('courseId', query.courseId);
  params.set('page', String(query.page));
  return callOrgPeople<EnrolmentPage>('GET', `${orgPath(organizationId)}/enrolments?${params}`);
}

export function useEnrolments(organizationId: string, query: EnrolmentQuery) {
  return useQuery({
    queryKey: orgAdminKeys.enrolmentPage(organizationId, query),
    queryFn: () => getEnrolments(organizationId, query),
    placeholderData: keepPreviousData,
  });
}

/**
 * Sends a CSV to the import; a file with wrong lines comes back as a report too (422), which
 * the screen shows instead of an error.
 */
export async function importEnrolments(
  organizationId: string,
  csv: string,
  dryRun: boolean,
): Promise<ImportReport> {
  try {
    return await callOrgPeople<ImportReport>(
      'POST',
      `${orgPath(organizationId)}/enrolments/import${dryRun ? '?dry_run=1' : ''}`,
      csv,
    );
  } catch (error) {
    if (error instanceof OrgPeopleError && error.status === 422) return error.body as ImportReport;
    throw error;
  }
}

function useEnrolmentMutation<I, O>(organizationId: string, run: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: orgAdminKeys.organization(organizationId) }),
  });
}

export function useImportEnrolments(organizationId: string) {
  return useEnrolmentMutation(organizationId, ({ csv, dryRun }: { csv: string; dryRun: boolean }) =>
    importEnrolments(organizationId, csv, dryRun),
  );
}

/** A CSV field, quoted when it holds a comma, a quote or a line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function useEnrolOne(organizationId: string) {
  return useEnrolmentMutation(
    organizationId,
    ({ email, courseId }: { email: string; courseId: string }) =>
      importEnrolments(organizationId, `email,course\n${csvField(email)},${courseId}\n`, false),
  );
}

export function useEnrolBoard(organizationId: string) {
  return useEnrolmentMutation(
    organizationId,
    async ({ courseId, boardId }: { courseId: string; boardId: string }) => {
      const client = await getSupabase();
      const { data, error } = await client.rpc('enroll_board', {
        course_id: courseId,
        board_id: boardId,
      });
      if (error) throw new Error(error.message);
      return data as number;
    },
  );
}

export function useUnenrol(organizationId: string) {
  return useEnrolmentMutation(organizationId, async (enrolmentId: string) => {
    const client = await getSupabase();
    const { data, error } = await client
      .from('enrollments')
      .delete()
      .eq('id', enrolmentId)
      .select('id');
    if (error) throw new Error(error.message);
    if (!data || data.length === 0)
      throw new Error('This enrolment is gone already, or you may not remove it.');
  });
}
