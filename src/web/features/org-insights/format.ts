/** How the admin screens write figures: grouped thousands, one decimal, "—" for no value. */

export function formatCount(value: number): string {
  return value.toLocaleString('en-GB');
}

export function formatPercent(value: number | null): string {
  return value === null ? '—' : `${value.toLocaleString('en-GB', { maximumFractionDigits: 1 })}%`;
}

/** A UTC day (YYYY-MM-DD) as "23 Nov 2026". */
export function formatDay(day: string | null): string {
  if (!day) return '—';
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

export function formatDateTime(iso: string | null): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

/** Completed enrolments as a percent of enrolments, or null with none. */
export function completionRate(completions: number, enrollments: number): number | null {
  return enrollments === 0 ? null : Math.round((1000 * completions) / enrollments) / 10;
}
