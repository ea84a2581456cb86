/** Dates and states as the flashcard screens show them. */
import { cardStates } from '@common/flashcards';

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** "now" when already due, else the date and time. */
export function formatDue(iso: string, now = new Date()): string {
  return new Date(iso).getTime() <= now.getTime() ? 'now' : dateTime.format(new Date(iso));
}

export function stateLabel(state: number): string {
  return cardStates[state] ?? 'Unknown';
}
