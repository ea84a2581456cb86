/** Data-access patterns: who touched how many records of which kind, by day (UTC). */
import { useState } from 'react';
import { EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { SelectField } from '@/components/ui/field';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { useAccessPatterns } from './api/audit-log';
import { Identifier } from './identifier';

const periods = [7, 30, 90, 365];

export function AccessPatternsPanel({
  userId,
  organizationId,
}: {
  userId: string;
  organizationId: string | null;
}) {
  const [days, setDays] = useState(30);
  const patterns = useAccessPatterns(userId, organizationId, days);
  return (
    <Section
      title="Access patterns"
      id="access-patterns"
      description="Audit entries per day, person, kind of record and action: a person reading or changing far more records than usual stands out."
    >
      <SelectField
        label="Period"
        className="max-w-xs"
        value={days}
        onChange={(e) => setDays(Number(e.target.value))}
      >
        {periods.map((p) => (
          <option key={p} value={p}>
            Last {p} days
          </option>
        ))}
      </SelectField>
      <div className="mt-4">
        {patterns.isPending ? (
          <LoadingBlock label="Counting access…" />
        ) : patterns.isError ? (
          <LoadError
            message={`Could not count access: ${patterns.error.message}`}
            onRetry={() => void patterns.refetch()}
          />
        ) : patterns.data.length === 0 ? (
          <EmptyState>No audit entries in this period.</EmptyState>
        ) : (
          <Table regionLabel="Access by day">
            <TableHeader>
              <TableRow>
                <TableHead>Day (UTC)</TableHead>
                <TableHead>Who</TableHead>
                <TableHead>Kind of record</TableHead>
                <TableHead>Action</TableHead>
                <TableHead className="text-right">Entries</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {patterns.data.map((row) => (
                <TableRow key={`${row.day}|${row.user_id}|${row.table_name}|${row.action}`}>
                  <TableCell className="whitespace-nowrap">{row.day}</TableCell>
                  <TableCell>
                    <Identifier value={row.user_id} empty="the platform" />
                  </TableCell>
                  <TableCell>{row.table_name || '—'}</TableCell>
                  <TableCell>
                    <code className="font-mono text-xs">{row.action}</code>
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {row.entries.toLocaleString('en')}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </div>
    </Section>
  );
}
