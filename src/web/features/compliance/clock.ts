/**
 * Notification deadlines as people read them: the time left to a deadline, or how long ago it
 * passed, in days and hours (hours and minutes under a day).
 */
export function timeLeft(deadline: string, now = Date.now()): { text: string; overdue: boolean } {
  const ms = Date.parse(deadline) - now;
  const abs = Math.abs(ms);
  const minutes = Math.floor(abs / 60_000);
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  const span =
    days > 0
      ? `${days} d ${hours % 24} h`
      : hours > 0
        ? `${hours} h ${minutes % 60} min`
        : `${minutes} min`;
  return ms >= 0
    ? { text: `${span} left`, overdue: false }
    : { text: `overdue by ${span}`, overdue: true };
}
