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
  /**
   * Requests the gateway served per service over `window_hours` since `window_start` (0 before
   * its first counter flush).
   */
  estimates: {
    db_requests: number;
    auth_requests: number;
    storage_requests: number;
    realtime_events: number;
    functions_requests: number;
    window_hours: number;
    window_start: string;
  };
  completion: { completed: number; in_progress: number; not_started: number };
  response_time_ms: number | null;
  response_time_p99_ms: number | null;
  db_connections: number;
  requests_last_hour: { minute: string; requests: number; errors: number }[] | null;
  generated_at: string;
}
