/**
 * Security incidents (decision 0403): severity, status moved one step at a time, the GDPR
 * 72-hour and HIPAA 60-day clocks with the time left, and the response actions to mark done.
 */
import { toast } from 'sonner';
import { EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { nextStep, useIncidents, useWorkIncident, type Incident } from './api/oversight';
import { timeLeft } from './clock';
import { utc } from './identifier';

const statusLabel = (status: string) => status.charAt(0).toUpperCase() + status.slice(1);

function Clock({ label, deadline, done }: { label: string; deadline: string; done: boolean }) {
  const left = timeLeft(deadline);
  return (
    <li>
      <span className="font-medium">{label}:</span> by {utc(deadline)}
      {done ? (
        ' (notified)'
      ) : (
        <span className={left.overdue ? 'font-semibold text-destructive' : ''}> — {left.text}</span>
      )}
    </li>
  );
}

function IncidentCard({
  incident,
  work,
}: {
  incident: Incident;
  work: ReturnType<typeof useWorkIncident>;
}) {
  const next = nextStep(incident.status);
  const notified = incident.authority_notified_at !== null;
  const run = (change: Parameters<typeof work.mutate>[0], done: string) =>
    work.mutate(change, {
      onSuccess: () => toast.success(done),
      onError: (error) => toast.error(`Not changed: ${error.message}`),
    });
  return (
    <li className="rounded-lg border bg-background p-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{incident.title}</span>
        <Badge variant={incident.severity === 'critical' ? 'destructive' : 'outline'}>
          {statusLabel(incident.severity)}
        </Badge>
        <Badge variant="secondary">{statusLabel(incident.status)}</Badge>
      </div>
      <p className="mt-1 text-muted-foreground">
        Detected {utc(incident.detected_at)} · {incident.category.replace(/_/g, ' ')}
        {incident.personal_data_involved && ' · personal data involved'}
        {incident.phi_involved && ' · health information involved'}
      </p>
      {(incident.gdpr_notify_by || incident.hipaa_notify_by) && (
        <ul className="mt-2 grid gap-1">
          {incident.gdpr_notify_by && (
            <Clock
              label="GDPR: notify the authority within 72 hours"
              deadline={incident.gdpr_notify_by}
              done={notified}
            />
          )}
          {incident.hipaa_notify_by && (
            <Clock
              label="HIPAA: notify individuals within 60 days"
              deadline={incident.hipaa_notify_by}
              done={false}
            />
          )}
        </ul>
      )}
      {incident.incident_response_actions.length > 0 && (
        <ul className="mt-2 grid gap-1" aria-label={`Actions for ${incident.title}`}>
          {incident.incident_response_actions.map((action) => (
            <li key={action.id} className="flex flex-wrap items-center gap-2">
              <span>
                {action.title} — {action.status === 'done' ? 'done' : `due ${utc(action.due_at)}`}
              </span>
              {action.status === 'pending' && (
                <Button
                  size="sm"
                  variant="outline"
                  disabled={work.isPending}
                  onClick={() => run({ kind: 'action', id: action.id }, 'Action marked done.')}
                >
                  Mark done<span className="sr-only">: {action.title}</span>
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="mt-2 flex flex-wrap gap-2">
        {next && (
          <Button
            size="sm"
            disabled={work.isPending}
            onClick={() =>
              run({ kind: 'status', id: incident.id, status: next }, `Incident moved to ${next}.`)
            }
          >
            Move to {next}
          </Button>
        )}
        {incident.gdpr_notify_by && !notified && (
          <Button
            size="sm"
            variant="outline"
            disabled={work.isPending}
            onClick={() => run({ kind: 'notified', id: incident.id }, 'Notification recorded.')}
          >
            Authority notified
          </Button>
        )}
      </div>
    </li>
  );
}

export function IncidentsPanel({
  userId,
  organizationId,
}: {
  userId: string;
  organizationId: string | null;
}) {
  const incidents = useIncidents(userId, organizationId);
  const work = useWorkIncident(userId, organizationId);
  return (
    <Section
      title="Security incidents"
      id="incidents"
      description="Raised from failed sign-ins, refresh-token reuse, data-room PIN guessing and mass exports, or reported by an officer. Each moves open → investigating → contained → resolved → closed."
    >
      {incidents.isPending ? (
        <LoadingBlock label="Loading incidents…" />
      ) : incidents.isError ? (
        <LoadError
          message={`Could not load incidents: ${incidents.error.message}`}
          onRetry={() => void incidents.refetch()}
        />
      ) : incidents.data.length === 0 ? (
        <EmptyState>No security incidents.</EmptyState>
      ) : (
        <ul className="grid gap-3">
          {incidents.data.map((incident) => (
            <IncidentCard key={incident.id} incident={incident} work={work} />
          ))}
        </ul>
      )}
    </Section>
  );
}
