/**
 * The audit log: filters applied on the server (action, table, person, dates, a record id
 * whole or by its start); newest first, 50 at a time; every filtered entry as a CSV or JSON
 * file (streamed by the server, which records the export).
 */
import { useState, type FormEvent } from 'react';
import { Download } from 'lucide-react';
import { toast } from 'sonner';
import { EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { downloadBlob } from '@/lib/download';
import {
  AUDIT_PAGE_SIZE,
  auditFilterError,
  emptyAuditFilters,
  exportAuditLog,
  RECORD_ID_MIN_PREFIX,
  useAuditLog,
  type AuditExportFormat,
  type AuditFilters,
} from './api/audit-log';
import { Identifier, utc } from './identifier';

export function AuditLogPanel({
  userId,
  organizationId,
}: {
  userId: string;
  organizationId: string | null;
}) {
  const [draft, setDraft] = useState<AuditFilters>(emptyAuditFilters);
  const [filters, setFilters] = useState<AuditFilters>(emptyAuditFilters);
  // Keyset paging: the id each shown page starts below (undefined: the newest).
  const [cursors, setCursors] = useState<(number | undefined)[]>([undefined]);
  const [exporting, setExporting] = useState<AuditExportFormat | null>(null);
  const before = cursors[cursors.length - 1];
  const log = useAuditLog(userId, organizationId, filters, before);
  const draftError = auditFilterError(draft);

  function apply(event: FormEvent) {
    event.preventDefault();
    if (draftError) return;
    setFilters(draft);
    setCursors([undefined]);
  }

  function clear() {
    setDraft(emptyAuditFilters);
    setFilters(emptyAuditFilters);
    setCursors([undefined]);
  }

  async function exportAs(format: AuditExportFormat) {
    setExporting(format);
    try {
      const file = await exportAuditLog(organizationId, filters, format);
      downloadBlob(`audit-log-${new Date().toISOString().slice(0, 10)}.${format}`, file);
      toast.success(`Exported the matching entries as ${format.toUpperCase()}.`);
    } catch (error) {
      toast.error(`Not exported: ${(error as Error).message}`);
    } finally {
      setExporting(null);
    }
  }

  const entries = log.data?.slice(0, AUDIT_PAGE_SIZE) ?? [];
  const hasOlder = (log.data?.length ?? 0) > AUDIT_PAGE_SIZE;

  return (
    <Section
      title="Audit log"
      id="audit-log"
      description="Who did what to which record, why and on which legal basis. Values are never shown: only the names of the fields an entry concerns."
    >
      <form
        onSubmit={apply}
        aria-label="Filter the audit log"
        className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3"
      >
        <Field
          label="Record id"
          hint={`The whole id, or its first ${RECORD_ID_MIN_PREFIX} characters or more.`}
          value={draft.search}
          error={draftError?.startsWith('Search a record id') ? draftError : undefined}
          onChange={(e) => setDraft({ ...draft, search: e.target.value })}
        />
        <Field
          label="Action"
          hint="Exact, such as update or auth.sign_in."
          value={draft.action}
          onChange={(e) => setDraft({ ...draft, action: e.target.value.trim() })}
        />
        <Field
          label="Table"
          hint="Exact, such as public.notes."
          value={draft.table}
          onChange={(e) => setDraft({ ...draft, table: e.target.value.trim() })}
        />
        <Field
          label="Person (user id)"
          hint="Entries they made or that concern them."
          value={draft.person}
          error={draft.person && draftError?.startsWith('A person') ? draftError : undefined}
          onChange={(e) => setDraft({ ...draft, person: e.target.value })}
        />
        <Field
          label="From (UTC)"
          type="date"
          value={draft.from}
          onChange={(e) => setDraft({ ...draft, from: e.target.value })}
        />
        <Field
          label="To (UTC)"
          type="date"
          value={draft.to}
          error={draftError?.startsWith('The "from"') ? draftError : undefined}
          onChange={(e) => setDraft({ ...draft, to: e.target.value })}
        />
        <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-3">
          <Button type="submit" disabled={draftError !== null}>
            Apply filters
          </Button>
          <Button type="button" variant="outline" onClick={clear}>
            Clear
          </Button>
          {(['csv', 'json'] as const).map((format) => (
            <Button
              key={format}
              type="button"
              variant="outline"
              onClick={() => void exportAs(format)}
              disabled={exporting !== null}
            >
              <Download aria-hidden="true" />
              {exporting === format ? 'Exporting…' : `Export ${format.toUpperCase()}`}
            </Button>
          ))}
        </div>
      </form>

      <div className="mt-4">
        {log.isPending ? (
          <LoadingBlock label="Loading the audit log…" />
        ) : log.isError ? (
          <LoadError
            message={`Could not load the audit log: ${log.error.message}`}
            onRetry={() => void log.refetch()}
          />
        ) : entries.length === 0 ? (
          <EmptyState>No entries match these filters.</EmptyState>
        ) : (
          <>
            {log.isPlaceholderData && <Notice tone="info">Loading…</Notice>}
            <Table regionLabel="Audit log entries">
              <TableHeader>
                <TableRow>
                  <TableHead>Entry</TableHead>
                  <TableHead>Time</TableHead>
                  <TableHead>Who</TableHead>
                  <TableHead>Action</TableHead>
                  <TableHead>Record</TableHead>
                  <TableHead>Fields</TableHead>
                  <TableHead>Purpose and basis</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {entries.map((entry) => (
                  <TableRow key={entry.id}>
                    <TableCell>{entry.id}</TableCell>
                    <TableCell className="whitespace-nowrap">{utc(entry.timestamp)}</TableCell>
                    <TableCell className="min-w-40">
                      <Identifier value={entry.user_id} empty="the platform" />
                    </TableCell>
                    <TableCell>
                      <code className="font-mono text-xs">{entry.action}</code>
                    </TableCell>
                    <TableCell>
                      <div>{entry.table_name ?? '—'}</div>
                      <Identifier value={entry.record_id} empty="" />
                    </TableCell>
                    <TableCell className="max-w-48 text-xs break-words whitespace-normal">
                      {entry.changed_fields.join(', ') || '—'}
                    </TableCell>
                    <TableCell className="max-w-56 text-xs whitespace-normal">
                      {entry.purpose} ({entry.legal_basis.replace(/_/g, ' ')})
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <nav aria-label="Audit log pages" className="mt-3 flex justify-between gap-2">
              <Button
                variant="outline"
                size="sm"
                disabled={cursors.length === 1}
                onClick={() => setCursors(cursors.slice(0, -1))}
              >
                Newer
              </Button>
              <Button
                variant="outline"
                size="sm"
                disabled={!hasOlder}
                onClick={() => setCursors([...cursors, entries[entries.length - 1]!.id])}
              >
                Older
              </Button>
            </nav>
          </>
        )}
      </div>
    </Section>
  );
}
