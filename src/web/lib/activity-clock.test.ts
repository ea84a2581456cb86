import { describe, expect, it } from 'vitest';
import { ActivityClock, IDLE_AFTER_MS, MAX_INCREMENT_SECONDS } from './activity-clock';

const active = { visible: true, focused: true };

function run(clock: ActivityClock, from: number, seconds: number, state = active): number {
  for (let t = from; t <= from + seconds * 1000; t += 1000) clock.tick(t, state);
  return from + seconds * 1000;
}

describe('ActivityClock', () => {
  it('counts seconds while the page is visible, focused and recently used', () => {
    const clock = new ActivityClock(0);
    run(clock, 0, 30);
    expect(clock.take()).toBe(30);
    expect(clock.take()).toBe(0);
  });

  it('counts nothing in a hidden page or an unfocused tab', () => {
    const clock = new ActivityClock(0);
    run(clock, 0, 30, { visible: false, focused: true });
    run(clock, 31_000, 30, { visible: true, focused: false });
    expect(clock.pendingSeconds()).toBe(0);
  });

  it('stops counting two minutes after the last input and starts again on input', () => {
    const clock = new ActivityClock(0);
    const end = run(clock, 0, 600);
    expect(clock.take()).toBe(IDLE_AFTER_MS / 1000);
    clock.input(end);
    run(clock, end, 10);
    expect(clock.take()).toBe(10);
  });

  it('does not count a long gap between ticks (a sleeping laptop)', () => {
    const clock = new ActivityClock(0);
    clock.tick(0, active);
    clock.input(3_600_000);
    clock.tick(3_600_000, active);
    expect(clock.pendingSeconds()).toBe(0);
  });

  it('starts a new interval after a pause', () => {
    const clock = new ActivityClock(0);
    clock.tick(0, active);
    clock.pause();
    clock.tick(4_000, active);
    clock.tick(5_000, active);
    expect(clock.take()).toBe(1);
  });

  it('sends at most one save’s worth and keeps the rest and the fraction', () => {
    const clock = new ActivityClock(0);
    for (let t = 0; t <= 300_000; t += 1000) {
      clock.input(t);
      clock.tick(t, active);
    }
    clock.tick(300_500, active);
    expect(clock.take()).toBe(MAX_INCREMENT_SECONDS);
    expect(clock.take()).toBe(MAX_INCREMENT_SECONDS);
    expect(clock.take()).toBe(60);
    clock.giveBack(500);
    expect(clock.take()).toBe(MAX_INCREMENT_SECONDS);
  });
});
