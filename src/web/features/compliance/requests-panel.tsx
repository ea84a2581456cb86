/**
 * Data subject requests of the organization's people: type, status, due date, overdue, without
 * what the person wrote (the admins who work a request see that on /app/privacy-requests).
 */
import { useState } from 'react';
import { EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Badge } from '@/components/ui/badge';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { useRequestOverview, type RequestStatusRow } from './api/oversight';
import { Identifier, utc } from './identifier';

const open = (r: RequestStatusRow) => r.status === 'pending' || r.status === 'in_progress';
const overdue = (r: RequestStatusRow, now: number) => open(r) && Date.parse(r.due_at) < now;

export function RequestsPanel({
  userId,
  organizationId,
}: {
  userId: string;
  organizationId: string | null;
}) {
  const requests = useRequestOverview(userId, organizationId);
  // Overdue as of when the screen opened.
  const [now] = useState(() => Date.now());
  return (
    <Section
      title="Data subject requests"
      id="requests"
      description="Due 30 days after filing. Open requests come first, the soonest due at the top."
    >
      {requests.isPending ? (
        <LoadingBlock label="Loading requests…" />
      ) : requests.isError ? (
        <LoadError
          message={`Could not load requests: ${requests.error.message}`}
          onRetry={() => void requests.refetch()}
        />
      ) : requests.data.length === 0 ? (
        <EmptyState>No data subject requests.</EmptyState>
      ) : (
        <>
          <dl className="mb-3 flex flex-wrap gap-x-6 gap-y-1 text-sm">
            {[
              ['Open', requests.data.filter(open).length],
              ['Overdue', requests.data.filter((r) => overdue(r, now)).length],
              ['Closed', requests.data.filter((r) => !open(r)).length],
            ].map(([label, count]) => (
              <div key={label} className="flex gap-1">
                <dt className="text-muted-foreground">{label}:</dt>
                <dd className="font-semibold tabular-nums">{count}</dd>
              </div>
            ))}
          </dl>
          <Table regionLabel="Data subject requests">
            <TableHeader>
              <TableRow>
                <TableHead>Type</TableHead>
                <TableHead>Person</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Filed</TableHead>
                <TableHead>Due or closed</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {requests.data.map((r) => (
                <TableRow key={r.id}>
                  <TableCell className="capitalize">{r.request_type}</TableCell>
                  <TableCell>
                    <Identifier value={r.user_id} />
                  </TableCell>
                  <TableCell>
                    <span className="capitalize">{r.status.replace('_', ' ')}</span>
                    {overdue(r, now) && (
                      <Badge variant="destructive" className="ml-2">
                        Overdue
                      </Badge>
                    )}
                  </TableCell>
                  <TableCell className="whitespace-nowrap">{utc(r.created_at)}</TableCell>
                  <TableCell className="whitespace-nowrap">
                    {r.completed_at ? `closed ${utc(r.completed_at)}` : `due ${utc(r.due_at)}`}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </>
      )}
    </Section>
  );
}
