/**
 * Time on task from real activity (decision 0163): a second counts only while the page is
 * visible, its tab focused, and the reader has pressed a key, pointed, scrolled or touched in
 * the last two minutes. Pure, so the rule is tested without a browser; the reading-session
 * hook feeds it events and ticks.
 */

/** No input for this long and the reader is taken to have stopped reading. */
export const IDLE_AFTER_MS = 120_000;
/** A gap between ticks longer than this (a sleeping laptop, a throttled tab) is not counted. */
export const MAX_TICK_MS = 5_000;
/** The most one save may carry; the database refuses more (db/app 0430). */
export const MAX_INCREMENT_SECONDS = 120;

export interface PageState {
  visible: boolean;
  focused: boolean;
}

export class ActivityClock {
  private lastInputAt: number;
  private lastTickAt: number | null = null;
  private pendingMs = 0;

  constructor(now: number) {
    this.lastInputAt = now;
  }

  /** The reader did something (key, pointer, wheel, scroll, touch). */
  input(now: number): void {
    this.lastInputAt = Math.max(this.lastInputAt, now);
  }

  /** Called about once a second while the page is visible; counts the time since the last tick. */
  tick(now: number, state: PageState): void {
    const since = this.lastTickAt === null ? 0 : now - this.lastTickAt;
    this.lastTickAt = now;
    if (!state.visible || !state.focused) return;
    if (now - this.lastInputAt > IDLE_AFTER_MS) return;
    if (since <= 0 || since > MAX_TICK_MS) return;
    this.pendingMs += since;
  }

  /** The page was hidden or lost focus: the next tick starts a new interval. */
  pause(): void {
    this.lastTickAt = null;
  }

  /** Whole seconds counted and not yet sent. */
  pendingSeconds(): number {
    return Math.floor(this.pendingMs / 1000);
  }

  /** Takes the whole seconds to send (at most one save's worth); the fraction stays. */
  take(): number {
    const seconds = Math.min(MAX_INCREMENT_SECONDS, this.pendingSeconds());
    this.pendingMs -= seconds * 1000;
    return seconds;
  }

  /** A save failed: its seconds go back, still capped at one save's worth. */
  giveBack(seconds: number): void {
    this.pendingMs = Math.min(MAX_INCREMENT_SECONDS * 1000, this.pendingMs + seconds * 1000);
  }
}
