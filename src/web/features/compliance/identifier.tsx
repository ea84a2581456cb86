/** An identifier (a user or record id) as the console shows it: monospaced, wrapping anywhere. */
export function Identifier({ value, empty = '—' }: { value: string | null; empty?: string }) {
  if (!value) return <span className="text-muted-foreground">{empty}</span>;
  return <code className="font-mono text-xs break-all">{value}</code>;
}

export const dateTime = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

/** A timestamp in UTC, the zone the audit log and deadlines are kept in. */
export function utc(value: string): string {
  return `${dateTime.format(new Date(value))} UTC`;
}
