/** The report's rows as a table, on screen and on paper. */
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import type { ReportRow } from './api/get-organization-report';
import { formatCount, formatDateTime, formatDay, formatPercent } from './format';

const statusLabels: Record<ReportRow['status'], string> = {
  active: 'In progress',
  completed: 'Completed',
  dropped: 'Dropped',
};

export function ReportTable({ rows, caption }: { rows: ReportRow[]; caption: string }) {
  // A grid item that scrolls may be narrower than its table, so a wide report scrolls inside
  // its frame instead of widening the page on a phone.
  return (
    <div className="grid">
      <Table regionLabel="Report rows">
        <TableCaption>{caption}</TableCaption>
        <TableHeader>
          <TableRow>
            <TableHead scope="col">Learner</TableHead>
            <TableHead scope="col">Course</TableHead>
            <TableHead scope="col">Status</TableHead>
            <TableHead scope="col" className="text-right">
              Progress
            </TableHead>
            <TableHead scope="col" className="text-right">
              Average score
            </TableHead>
            <TableHead scope="col">Enrolled</TableHead>
            <TableHead scope="col">Last active</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.enrollmentId}>
              <TableHead scope="row" className="font-medium whitespace-normal">
                {row.learner}
                <span className="block text-xs font-normal text-muted-foreground">
                  {row.email}
                  {row.boards ? ` · ${row.boards}` : ''}
                </span>
              </TableHead>
              <TableCell className="whitespace-normal">{row.course}</TableCell>
              <TableCell>{statusLabels[row.status]}</TableCell>
              <TableCell className="text-right tabular-nums">{row.progressPercent}%</TableCell>
              <TableCell className="text-right tabular-nums">
                {formatPercent(row.averageScore)}
                <span className="block text-xs text-muted-foreground">
                  {formatCount(row.gradedAttempts)} graded
                </span>
              </TableCell>
              <TableCell>{formatDateTime(row.enrolledAt)}</TableCell>
              <TableCell>{formatDay(row.lastActiveDay)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
