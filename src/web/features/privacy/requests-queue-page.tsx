/**
 * The data request queue (/app/privacy-requests) for organization admins (their members'
 * requests) and platform admins (all): pending, overdue and completed, each moved along with
 * Start, Complete or Reject (a rejection says why, asked in a dialog). An access or
 * portability request is answered with a prepared export, an erasure request by erasing the
 * account (confirmed in a dialog); both run as jobs and complete the request (decision 0421). Row-level security decides what is listed.
 */
import { useState } from 'react';
import { toast } from 'sonner';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { useAppSession } from '@/lib/app-session';
import {
  requestTypeLabels,
  useQueue,
  useUpdateRequest,
  type DataRequest,
  type QueueFilter,
} from './api/requests';
import { useFulfilRequest } from './api/fulfilment';
import { EraseDialog } from './erase-dialog';
import { RejectDialog } from './reject-dialog';
import { RequestList } from './request-list';

const filters: { value: QueueFilter; label: string }[] = [
  { value: 'pending', label: 'Pending' },
  { value: 'overdue', label: 'Overdue' },
  { value: 'completed', label: 'Completed' },
];

export function RequestsQueuePage() {
  const { userId } = useAppSession();
  const [filter, setFilter] = useState<QueueFilter>('pending');
  const queue = useQueue(userId, filter);
  const update = useUpdateRequest(userId);
  const fulfil = useFulfilRequest(userId);
  const [erasing, setErasing] = useState<{ request: DataRequest; from: HTMLElement } | null>(null);

  // The request being rejected and the button that opened the dialog (focus goes back to it).
  const [rejecting, setRejecting] = useState<{ request: DataRequest; from: HTMLElement } | null>(
    null,
  );

  function prepareExport(request: DataRequest) {
    fulfil.mutate(
      { kind: 'export', requestId: request.id },
      {
        onSuccess: () =>
          toast.success(
            'The export is being prepared. The request completes when it is ready, and the person downloads it from their Privacy page.',
          ),
        onError: (error) => toast.error(`Not started: ${error.message}`),
      },
    );
  }

  function erase(request: DataRequest) {
    fulfil.mutate(
      { kind: 'erasure', requestId: request.id },
      {
        onSuccess: () => {
          setErasing(null);
          toast.success('The account is being erased. The request completes when it is done.');
        },
        onError: (error) => toast.error(`Not erased: ${error.message}`),
      },
    );
  }

  function move(
    request: DataRequest,
    status: 'in_progress' | 'completed' | 'rejected',
    resolution?: string,
  ) {
    update.mutate(
      { id: request.id, status, resolution },
      {
        onSuccess: () => {
          setRejecting(null);
          toast.success('Request updated.');
        },
        onError: (error) => toast.error(`Not updated: ${error.message}`),
      },
    );
  }

  return (
    <AppPage
      title="Data requests"
      intro="GDPR requests from the people you administer, due 30 days after filing."
    >
      <div role="group" aria-label="Show" className="flex flex-wrap gap-2">
        {filters.map((f) => (
          <Button
            key={f.value}
            variant={filter === f.value ? 'default' : 'outline'}
            aria-pressed={filter === f.value}
            onClick={() => setFilter(f.value)}
          >
            {f.label}
          </Button>
        ))}
      </div>
      <Section title={filters.find((f) => f.value === filter)!.label} id="request-queue">
        {queue.isPending ? (
          <LoadingBlock label="Loading the requests…" />
        ) : queue.isError ? (
          <LoadError
            message={`Could not load the requests: ${queue.error.message}`}
            onRetry={() => void queue.refetch()}
          />
        ) : queue.data.length === 0 ? (
          <EmptyState>No requests here.</EmptyState>
        ) : (
          <RequestList
            requests={queue.data}
            actions={(request) =>
              request.status === 'completed' || request.status === 'rejected' ? null : (
                <>
                  {request.status === 'pending' && (
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => move(request, 'in_progress')}
                    >
                      Start
                    </Button>
                  )}
                  {(request.request_type === 'access' ||
                    request.request_type === 'portability') && (
                    <Button
                      size="sm"
                      disabled={fulfil.isPending}
                      onClick={() => prepareExport(request)}
                    >
                      Prepare export
                    </Button>
                  )}
                  {request.request_type === 'erasure' ? (
                    <Button
                      size="sm"
                      variant="destructive"
                      onClick={(event) => setErasing({ request, from: event.currentTarget })}
                    >
                      Erase account
                    </Button>
                  ) : (
                    <Button size="sm" variant="outline" onClick={() => move(request, 'completed')}>
                      Complete
                    </Button>
                  )}
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={(event) => setRejecting({ request, from: event.currentTarget })}
                  >
                    Reject
                  </Button>
                </>
              )
            }
          />
        )}
      </Section>
      {erasing && (
        <EraseDialog
          returnFocus={erasing.from}
          pending={fulfil.isPending}
          onCancel={() => setErasing(null)}
          onErase={() => erase(erasing.request)}
        />
      )}
      {rejecting && (
        <RejectDialog
          key={rejecting.request.id}
          open
          returnFocus={rejecting.from}
          requestLabel={requestTypeLabels[rejecting.request.request_type].label.toLowerCase()}
          pending={update.isPending}
          onCancel={() => setRejecting(null)}
          onReject={(reason) => move(rejecting.request, 'rejected', reason)}
        />
      )}
    </AppPage>
  );
}
