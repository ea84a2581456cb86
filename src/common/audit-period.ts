/**
 * The ids a period's audit entries lie between (decision 0431), for every newest-first read of a
 * period: the compliance console's pages (src/web/features/compliance/api/audit-log.ts) and the
 * server's streamed export (src/server/compliance/audit-export.ts). The log keeps each UTC day's
 * lowest and highest entry id (`audit.day_ids`); `audit_log_ids_between(since, until)` answers
 * the lowest and highest of the period's days, for reviewers only (42501 otherwise). A read that
 * adds `id >= atLeast` (the period has a start) and `id <= atMost` (it has an end) starts at the
 * period instead of walking down to it from the newest entry. The bounds are exact (every entry
 * of those days lies between them), so the time filter still decides which entries match.
 */

/** A row of `audit_log_ids_between` (bigints may come as strings). */
export interface PeriodIdsRow {
  first_id: number | string | null;
  last_id: number | string | null;
}

/** The id bounds to add to a read's filters; none when the read names no date. */
export interface PeriodIdBounds {
  atLeast?: number;
  atMost?: number;
}

/**
 * The bounds of the UTC days `from` to `to` (YYYY-MM-DD, either may be empty: open), read through
 * `idsBetween` as the caller; null when no entry was written in the period (nothing to read).
 */
export async function auditPeriodIdBounds(
  period: { from?: string | null; to?: string | null },
  idsBetween: (since: string | null, until: string | null) => Promise<readonly PeriodIdsRow[]>,
): Promise<PeriodIdBounds | null> {
  const from = period.from || null;
  const to = period.to || null;
  if (from === null && to === null) return {};
  const [row] = await idsBetween(from, to);
  if (!row || row.first_id === null || row.last_id === null) return null;
  return {
    ...(from !== null ? { atLeast: Number(row.first_id) } : {}),
    ...(to !== null ? { atMost: Number(row.last_id) } : {}),
  };
}
