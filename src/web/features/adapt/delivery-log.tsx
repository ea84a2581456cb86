/**
 * The webhook delivery log (decisions 0514, 0516): per delivery its event, status, attempts,
 * latest response code, when the queue tries again, the reason it failed, each attempt, and
 * for the organization's Admins a way to send it again.
 */
import { RotateCcw } from 'lucide-react';
import { toast } from 'sonner';
import { EmptyState, LoadError, LoadingBlock } from '@/components/app-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  useDeliveries,
  useRedeliver,
  type DeliveryStatus,
  type WebhookDelivery,
} from './api/adapt-outputs';
import { formatWhen } from './adapt-labels';

/** Attempts of one delivery before it counts as failed (decision 0514). */
const MAX_ATTEMPTS = 5;

export const EVENT_LABELS: Record<WebhookDelivery['event'], string> = {
  'lesson.exported': 'Lesson exported',
  'lesson.approved': 'Lesson approved',
  'lesson.published': 'Lesson published',
  'webhook.test': 'Test delivery',
};

const STATUS_LABELS: Record<DeliveryStatus, string> = {
  pending: 'Sending',
  retrying: 'Will retry',
  delivered: 'Delivered',
  failed: 'Failed',
  refused: 'Refused',
};

function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  return (
    <Badge
      variant={
        status === 'delivered'
          ? 'default'
          : status === 'failed' || status === 'refused'
            ? 'destructive'
            : 'outline'
      }
    >
      {STATUS_LABELS[status]}
    </Badge>
  );
}

export function DeliveryLog({
  scope,
  canRedeliver,
  label,
}: {
  scope: { organizationId?: string; jobId?: string };
  canRedeliver: boolean;
  label: string;
}) {
  const deliveries = useDeliveries(scope);
  if (deliveries.isPending) return <LoadingBlock label="Loading the delivery log…" />;
  if (deliveries.isError) {
    return (
      <LoadError
        message={`Could not load the delivery log: ${deliveries.error.message}`}
        onRetry={() => void deliveries.refetch()}
      />
    );
  }
  if (deliveries.data.length === 0) {
    return <EmptyState>No deliveries yet: they appear here as they are sent.</EmptyState>;
  }
  return (
    <ol className="grid gap-3" aria-label={label}>
      {deliveries.data.map((delivery) => (
        <DeliveryItem key={delivery.id} delivery={delivery} canRedeliver={canRedeliver} />
      ))}
    </ol>
  );
}

function DeliveryItem({
  delivery,
  canRedeliver,
}: {
  delivery: WebhookDelivery;
  canRedeliver: boolean;
}) {
  const redeliver = useRedeliver();
  const name = `${EVENT_LABELS[delivery.event]}${delivery.adapt_jobs ? `: ${delivery.adapt_jobs.title}` : ''}`;
  const open = delivery.status === 'pending' || delivery.status === 'retrying';
  const limit = delivery.event === 'webhook.test' ? 1 : MAX_ATTEMPTS;
  return (
    <li className="rounded-md border p-3 text-sm" aria-label={name}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-medium">{name}</span>
        <DeliveryStatusBadge status={delivery.status} />
      </div>
      <dl className="mt-2 grid gap-x-6 gap-y-1 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <dt className="text-muted-foreground">Sent</dt>
          <dd>{formatWhen(delivery.created_at)}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Attempts</dt>
          <dd>
            {delivery.attempts} of {limit}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Response code</dt>
          <dd>{delivery.response_code ?? 'None'}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Next retry</dt>
          <dd>
            {delivery.status === 'retrying' && delivery.next_attempt_at
              ? `Not before ${formatWhen(delivery.next_attempt_at)}`
              : delivery.status === 'pending'
                ? 'Being sent now'
                : 'None'}
          </dd>
        </div>
      </dl>
      <p className="mt-2 break-all text-muted-foreground">To {delivery.url}</p>
      {delivery.error && (
        <p className="mt-2 text-destructive">
          {delivery.status === 'refused' ? 'Refused: ' : ''}
          {delivery.error}
        </p>
      )}
      {delivery.adapt_webhook_attempts.length > 0 && (
        <details className="mt-2">
          <summary className="cursor-pointer rounded-sm font-medium text-primary">
            Each attempt
          </summary>
          <ol className="mt-2 grid gap-1">
            {delivery.adapt_webhook_attempts.map((attempt) => (
              <li key={attempt.attempt}>
                Attempt {attempt.attempt}, {formatWhen(attempt.attempted_at)}:{' '}
                {attempt.response_code !== null ? `HTTP ${attempt.response_code}` : 'no response'}{' '}
                in {attempt.duration_ms} ms{attempt.error ? `. ${attempt.error}` : ''}
              </li>
            ))}
          </ol>
        </details>
      )}
      {canRedeliver && !open && (
        <div className="mt-3">
          <Button
            size="sm"
            variant="outline"
            disabled={redeliver.isPending}
            aria-label={`Redeliver "${name}"`}
            onClick={() =>
              redeliver.mutate(delivery.id, {
                onSuccess: () => toast.success('Sent again: the new delivery is at the top.'),
                onError: (e) => toast.error(e.message),
              })
            }
          >
            <RotateCcw aria-hidden="true" />
            Redeliver
          </Button>
        </div>
      )}
    </li>
  );
}
