const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });

/** A count for display, or the explicit "no data yet" when nothing was measured. */
export function formatCount(value: number | null | undefined): string {
  return value === null || value === undefined ? 'no data yet' : integer.format(value);
}

export function formatMs(value: number | null | undefined): string {
  if (value === null || value === undefined) return 'no data yet';
  return `${value < 10 ? value.toFixed(1) : integer.format(value)} ms`;
}

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago". */
export function formatAge(thenMs: number, nowMs = Date.now()): string {
  const seconds = Math.max(0, Math.round((nowMs - thenMs) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return relative.format(-minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (hours < 24) return relative.format(-hours, 'hour');
  return relative.format(-Math.round(hours / 24), 'day');
}

export function formatPercent(part: number, whole: number): string {
  if (whole <= 0) return '0%';
  return `${Math.round((part / whole) * 100)}%`;
}

export function formatClock(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
