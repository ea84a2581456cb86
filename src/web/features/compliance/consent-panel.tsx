/** Consent records: choices per category and policy version, and the latest changes. */
import { EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { useConsentOverview } from './api/oversight';
import { Identifier, utc } from './identifier';

export function ConsentPanel({
  userId,
  organizationId,
}: {
  userId: string;
  organizationId: string | null;
}) {
  const consent = useConsentOverview(userId, organizationId);
  return (
    <Section
      title="Consent records"
      id="consent"
      description="What the people of the organization chose for each category, under which policy version, and every recent change with where it was made."
    >
      {consent.isPending ? (
        <LoadingBlock label="Loading consent records…" />
      ) : consent.isError ? (
        <LoadError
          message={`Could not load consent records: ${consent.error.message}`}
          onRetry={() => void consent.refetch()}
        />
      ) : consent.data.counts.length === 0 ? (
        <EmptyState>Nobody in this organization has recorded a choice yet.</EmptyState>
      ) : (
        <div className="grid gap-4">
          <Table regionLabel="Choices by category">
            <TableHeader>
              <TableRow>
                <TableHead>Category</TableHead>
                <TableHead>Policy version</TableHead>
                <TableHead className="text-right">Granted</TableHead>
                <TableHead className="text-right">Refused</TableHead>
                <TableHead>Last decided</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {consent.data.counts.map((c) => (
                <TableRow key={`${c.category}|${c.policy_version}`}>
                  <TableCell className="capitalize">{c.category}</TableCell>
                  <TableCell>{c.policy_version}</TableCell>
                  <TableCell className="text-right tabular-nums">{c.granted}</TableCell>
                  <TableCell className="text-right tabular-nums">{c.refused}</TableCell>
                  <TableCell className="whitespace-nowrap">{utc(c.last_decided_at)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <h3 className="font-semibold">Latest changes</h3>
          <Table regionLabel="Latest consent changes">
            <TableHeader>
              <TableRow>
                <TableHead>When</TableHead>
                <TableHead>Person</TableHead>
                <TableHead>Category</TableHead>
                <TableHead>Choice</TableHead>
                <TableHead>Where</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {consent.data.changes.map((c) => (
                <TableRow key={`${c.recorded_at}|${c.user_id}|${c.category}`}>
                  <TableCell className="whitespace-nowrap">{utc(c.recorded_at)}</TableCell>
                  <TableCell>
                    <Identifier value={c.user_id} />
                  </TableCell>
                  <TableCell className="capitalize">{c.category}</TableCell>
                  <TableCell>{c.granted ? 'Granted' : 'Refused'}</TableCell>
                  <TableCell className="capitalize">{c.source}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </Section>
  );
}
