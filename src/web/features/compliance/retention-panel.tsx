/** Retention: each policy (period, action, basis, on or off) and the latest nightly runs. */
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
import { useRetention } from './api/oversight';
import { utc } from './identifier';

export function RetentionPanel({ userId }: { userId: string }) {
  const retention = useRetention(userId);
  return (
    <Section
      title="Retention"
      id="retention"
      description="How long each kind of record is kept. The clean-up runs every night at 03:15 UTC; each run is listed with the rows it deleted or anonymised."
    >
      {retention.isPending ? (
        <LoadingBlock label="Loading retention…" />
      ) : retention.isError ? (
        <LoadError
          message={`Could not load retention: ${retention.error.message}`}
          onRetry={() => void retention.refetch()}
        />
      ) : (
        <div className="grid gap-4">
          <Table regionLabel="Retention policies">
            <TableHeader>
              <TableRow>
                <TableHead>Records</TableHead>
                <TableHead>Kept</TableHead>
                <TableHead>Then</TableHead>
                <TableHead>Legal basis</TableHead>
                <TableHead>Status</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {retention.data.policies.map((p) => (
                <TableRow key={p.table_name}>
                  <TableCell className="max-w-72 whitespace-normal">
                    <div className="font-medium">{p.table_name}</div>
                    <div className="text-xs text-muted-foreground">{p.description}</div>
                  </TableCell>
                  <TableCell className="whitespace-nowrap">
                    {p.retention_period_days.toLocaleString('en')} days
                  </TableCell>
                  <TableCell>{p.action === 'delete' ? 'Deleted' : 'Anonymised'}</TableCell>
                  <TableCell>{p.legal_basis.replace(/_/g, ' ')}</TableCell>
                  <TableCell>
                    <Badge variant={p.is_active ? 'secondary' : 'outline'}>
                      {p.is_active ? 'Active' : 'Suspended'}
                    </Badge>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <h3 className="font-semibold">Latest runs</h3>
          {retention.data.runs.length === 0 ? (
            <EmptyState>The clean-up has not run yet.</EmptyState>
          ) : (
            <Table regionLabel="Retention runs">
              <TableHeader>
                <TableRow>
                  <TableHead>Started</TableHead>
                  <TableHead>Records</TableHead>
                  <TableHead>Action</TableHead>
                  <TableHead className="text-right">Rows</TableHead>
                  <TableHead>Outcome</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {retention.data.runs.map((r) => (
                  <TableRow key={r.id}>
                    <TableCell className="whitespace-nowrap">{utc(r.started_at)}</TableCell>
                    <TableCell>{r.table_name}</TableCell>
                    <TableCell>{r.action}</TableCell>
                    <TableCell className="text-right tabular-nums">
                      {r.rows_affected.toLocaleString('en')}
                    </TableCell>
                    <TableCell className="max-w-64 whitespace-normal">
                      {r.error ? (
                        <span className="text-destructive">Failed: {r.error}</span>
                      ) : (
                        'Done'
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </div>
      )}
    </Section>
  );
}
