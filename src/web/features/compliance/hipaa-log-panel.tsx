/**
 * The HIPAA access log (decisions 0422, 0426): every upload, list, view, delete and export of a
 * learner's IEP documents, and every refused attempt, with the person, their roles, the learner,
 * the stated purpose and the address, newest first, and a check that no entry was changed or removed (each has a twin in the
 * hash-chained audit log). Identifiers only: never the documents or their titles.
 */
import { ShieldCheck } from 'lucide-react';
import { EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { HIPAA_PAGE, useHipaaLog, useVerifyHipaaLog } from './api/hipaa-log';
import { Identifier, utc } from './identifier';

const actionLabels = {
  upload: 'Stored',
  list: 'Listed',
  view: 'Opened',
  delete: 'Deleted',
  export: 'Exported to the learner',
};
const refusedLabels = {
  upload: 'Storing refused',
  list: 'Listing refused',
  view: 'Opening refused',
  delete: 'Deleting refused',
  export: 'Export refused',
};
const roleLabels: Record<string, string> = {
  org_admin: 'Org admin',
  instructor: 'Instructor',
  patient: 'The learner',
};

export function HipaaLogPanel({
  userId,
  organizationId,
}: {
  userId: string;
  organizationId: string | null;
}) {
  const log = useHipaaLog(userId, organizationId);
  const verify = useVerifyHipaaLog();
  return (
    <Section
      title="HIPAA access log"
      id="hipaa-log"
      description={`Each access to a learner's IEP documents and each refused attempt, with who, their roles, the learner (patient), the reason given and the address. The latest ${HIPAA_PAGE}.`}
    >
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <Button variant="outline" onClick={() => verify.mutate()} disabled={verify.isPending}>
          <ShieldCheck aria-hidden="true" />
          {verify.isPending ? 'Checking…' : 'Check the HIPAA log'}
        </Button>
        <div aria-live="polite" className="min-w-0 flex-1">
          {verify.isError && <Notice tone="error">Not checked: {verify.error.message}</Notice>}
          {verify.data &&
            (verify.data.ok ? (
              <Notice tone="success">
                The HIPAA log is whole: {verify.data.checked.toLocaleString('en')} entries match
                their audit chain entries.
              </Notice>
            ) : (
              <Notice tone="error">
                Entry {verify.data.first_broken_id ?? '(unknown)'} is not as recorded:{' '}
                {verify.data.problem}.
              </Notice>
            ))}
        </div>
      </div>
      {log.isPending ? (
        <LoadingBlock label="Loading the HIPAA access log…" />
      ) : log.isError ? (
        <LoadError
          message={`Could not load the HIPAA access log: ${log.error.message}`}
          onRetry={() => void log.refetch()}
        />
      ) : log.data.length === 0 ? (
        <EmptyState>No IEP document has been accessed yet.</EmptyState>
      ) : (
        <Table regionLabel="HIPAA access log entries">
          <TableHeader>
            <TableRow>
              <TableHead>When</TableHead>
              <TableHead>Access</TableHead>
              <TableHead>By</TableHead>
              <TableHead>Learner (patient)</TableHead>
              <TableHead>Purpose</TableHead>
              <TableHead>Address</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {log.data.map((entry) => (
              <TableRow key={entry.id}>
                <TableCell className="whitespace-nowrap">{utc(entry.timestamp)}</TableCell>
                <TableCell>
                  <div className="font-medium">
                    {entry.outcome === 'refused'
                      ? refusedLabels[entry.action]
                      : actionLabels[entry.action]}
                  </div>
                  {entry.refusal && <div className="text-xs">{entry.refusal}</div>}
                  <div className="text-xs text-muted-foreground">{entry.phi_accessed}</div>
                  {entry.document_id && <Identifier value={entry.document_id} />}
                </TableCell>
                <TableCell>
                  <Identifier value={entry.user_id} />
                  <div className="mt-1 flex flex-wrap gap-1">
                    {entry.roles.map((role) => (
                      <Badge key={role} variant="secondary">
                        {roleLabels[role] ?? role}
                      </Badge>
                    ))}
                  </div>
                </TableCell>
                <TableCell>
                  <Identifier value={entry.patient_id} />
                </TableCell>
                <TableCell className="max-w-72 whitespace-normal">{entry.purpose}</TableCell>
                <TableCell className="whitespace-nowrap">
                  <Identifier value={entry.ip_address} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Section>
  );
}
