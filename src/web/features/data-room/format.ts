/** Dates in the data room are calendar dates (YYYY-MM-DD), shown without time-zone shifts. */
function asUtcDate(isoDate: string): Date | undefined {
  const date = new Date(`${isoDate.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** "Oct 2025" */
export function formatMonthYear(isoDate: string): string {
  const date = asUtcDate(isoDate);
  return date
    ? date.toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' })
    : isoDate;
}

/** "October 4, 2025" */
export function formatLongDate(isoDate: string): string {
  const date = asUtcDate(isoDate);
  return date
    ? date.toLocaleDateString('en-US', {
        month: 'long',
        day: 'numeric',
        year: 'numeric',
        timeZone: 'UTC',
      })
    : isoDate;
}
