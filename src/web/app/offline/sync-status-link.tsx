/**
 * The sync state in the app's header (decision 0181): hidden while there is nothing to say,
 * otherwise offline, how many changes wait, sending, sent, or what went wrong, as a link to
 * the Offline study screen. Announced politely when it changes.
 */
import { Link } from 'react-router';
import { AlertCircle, CheckCircle2, CloudOff, LogIn, RefreshCw } from 'lucide-react';
import { keptTwice, notRecorded, useSyncStatus, type SyncStatus } from '@/lib/offline/offline-sync';
import { plural } from '@/lib/plural';
import { useOnline } from '@/lib/use-online';
import { cn } from '@/lib/utils';

const changes = (n: number) => plural(n, 'change', 'changes');

export function syncSummary(status: SyncStatus, online: boolean): string | null {
  const waiting = status.waiting > 0 ? `${changes(status.waiting)} waiting` : null;
  const twice = keptTwice(status);
  const doubled = twice > 0 ? `${plural(twice, 'note', 'notes')} kept in two versions` : null;
  if (!online) return waiting ? `Offline · ${waiting}` : 'Offline';
  switch (status.phase) {
    case 'syncing':
      return `Sending ${changes(status.waiting)}…`;
    case 'signed-out':
      return `Sign in again to send ${changes(status.waiting)}`;
    case 'failed':
      return notRecorded(status) > 0 && status.waiting === 0
        ? `${changes(notRecorded(status))} not recorded`
        : `Not sent: ${status.message ?? 'unknown error'}`;
    case 'synced':
      return waiting ?? doubled ?? 'All changes sent';
    default:
      return waiting ?? doubled;
  }
}

export function SyncStatusLink({ userId }: { userId: string }) {
  const status = useSyncStatus(userId);
  const online = useOnline();
  const summary = syncSummary(status, online);
  const Icon = !online
    ? CloudOff
    : status.phase === 'syncing'
      ? RefreshCw
      : status.phase === 'signed-out'
        ? LogIn
        : status.phase === 'failed'
          ? AlertCircle
          : CheckCircle2;
  return (
    <div role="status" aria-live="polite" className="min-w-0">
      {summary && (
        <Link
          to="/app/offline"
          data-testid="sync-status"
          className={cn(
            'flex min-w-0 items-center gap-1.5 rounded-md border px-2 py-1 text-xs font-medium hover:bg-accent',
            status.phase === 'failed' || status.phase === 'signed-out'
              ? 'border-destructive/40 text-destructive'
              : 'text-foreground',
          )}
        >
          <Icon
            aria-hidden="true"
            className={cn(
              'size-3.5 shrink-0',
              status.phase === 'syncing' && 'motion-safe:animate-spin',
            )}
          />
          <span className="truncate">{summary}</span>
        </Link>
      )}
    </div>
  );
}
