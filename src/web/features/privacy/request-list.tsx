/** A list of data requests with their status, due date and outcome; shared by both screens. */
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { isOverdue, requestTypeLabels, type DataRequest } from './api/requests';

const day = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });
const statusLabels = {
  pending: 'Pending',
  in_progress: 'In progress',
  completed: 'Completed',
  rejected: 'Rejected',
} as const;

export function RequestList({
  requests,
  actions,
}: {
  requests: DataRequest[];
  actions?: (request: DataRequest) => ReactNode;
}) {
  return (
    <ul className="grid gap-3">
      {requests.map((request) => (
        <li key={request.id} className="rounded-lg border bg-background p-3 text-sm">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-medium">{requestTypeLabels[request.request_type].label}</span>
            <Badge variant="outline">{statusLabels[request.status]}</Badge>
            {isOverdue(request) && <Badge variant="destructive">Overdue</Badge>}
          </div>
          <p className="mt-1 text-muted-foreground">
            Filed {day.format(new Date(request.created_at))}
            {request.completed_at
              ? `, closed ${day.format(new Date(request.completed_at))}`
              : `, due ${day.format(new Date(request.due_at))}`}
          </p>
          {request.details && <p className="mt-1 break-words">{request.details}</p>}
          {request.resolution && (
            <p className="mt-1 break-words">
              <span className="font-medium">Outcome:</span> {request.resolution}
            </p>
          )}
          {actions && <div className="mt-2 flex flex-wrap gap-2">{actions(request)}</div>}
        </li>
      ))}
    </ul>
  );
}
