import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../db/migrate';
import { openPglite } from '../db/pglite';
import type { Database } from '../db/types';
import { createLogger } from '../logger';
import { configuredPinChecker, generatePin, loadPinChecker } from './pin';

describe('data room PIN', () => {
  let db: Database;
  // Every migration on a fresh PGlite: seconds on a busy machine.
  beforeAll(async () => {
    db = await openPglite('memory://');
    await migrate(db);
  }, 60_000);
  afterAll(() => db?.close());

  it('generates a PIN on first start, prints it once and stores only a hash', async () => {
    const lines: string[] = [];
    const log = createLogger('info', (line) => lines.push(line));
    const first = await loadPinChecker(db, undefined, log);
    expect(lines).toHaveLength(1);
    const message = (JSON.parse(lines[0]!) as { msg: string }).msg;
    const pin = /Data room PIN generated: (\S+)/.exec(message)?.[1];
    expect(pin).toMatch(/^[A-Z2-9]{10}$/);
    expect(message).toMatch(/set DATA_ROOM_PIN/);

    const { rows } = await db.query<{ value: string }>(
      `select value from data_room.settings where key = 'pin_hash'`,
    );
    expect(rows[0]!.value).toMatch(/^\$argon2id\$/);
    expect(rows[0]!.value).not.toContain(pin!);

    expect(await first.matches(pin!)).toBe(true);
    expect(await first.matches(pin!.toLowerCase())).toBe(false);

    // A second start (or a second process) finds the hash and prints nothing.
    const second = await loadPinChecker(db, undefined, log);
    expect(lines).toHaveLength(1);
    expect(await second.matches(pin!)).toBe(true);
  }, 30_000);

  it('prefers DATA_ROOM_PIN and compares it exactly', async () => {
    const checker = await loadPinChecker(db, 'configured-pin', createLogger('silent'));
    expect(await checker.matches('configured-pin')).toBe(true);
    expect(await checker.matches('configured-pi')).toBe(false);
    expect(await checker.matches('configured-pin ')).toBe(false);
    expect(await configuredPinChecker(' spaced ').matches('spaced')).toBe(true);
  });

  it('generates PINs without look-alike characters', () => {
    const pins = Array.from({ length: 50 }, generatePin);
    for (const pin of pins) expect(pin).toMatch(/^[A-HJKMNP-Z2-9]{10}$/);
    expect(new Set(pins).size).toBe(50);
  });
});
