/**
 * What public.get_public_platform_metrics() returns (db/app/0302_platform_metrics.sql): the
 * home page's live panels read it, and the integration test checks it on both databases.
 */

export interface PlatformMetrics {
  totals: {
    users: number;
    courses: number;
    enrollments: number;
    notes: number;
    flashcards: number;
    active_users_7d: number;
    active_today: number;
  };
  /** Requests the gateway served per service over `window_hours`; null until it has counted. */
  estimates: {
    db_requests: number | null;
    auth_requests: number | null;
    storage_requests: number | null;
    realtime_events: number | null;
    functions_requests: number | null;
    window_hours: number;
  };
  completion: { completed: number; in_progress: number; not_started: number };
  response_time_ms: number | null;
  response_time_p99_ms: number | null;
  db_connections: number;
  requests_last_hour: { minute: string; requests: number; errors: number }[] | null;
  generated_at: string;
}
