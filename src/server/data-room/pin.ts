/**
 * The data-room PIN. Configured with DATA_ROOM_PIN, or generated on first start, stored only
 * as an argon2id hash, and shown once in the start-up log. Comparison is constant-time.
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { Database } from '../db/types';
import type { Logger } from '../logger';

export const PIN_MAX_LENGTH = 20;
const PIN_HASH_SETTING = 'pin_hash';
// No look-alike characters (0/O, 1/I/L): the PIN is read from a log and typed by hand.
const PIN_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const GENERATED_PIN_LENGTH = 10;

export interface PinChecker {
  /** `candidate` is already trimmed and at most PIN_MAX_LENGTH characters. */
  matches(candidate: string): Promise<boolean>;
}

export function generatePin(): string {
  let pin = '';
  for (let i = 0; i < GENERATED_PIN_LENGTH; i++)
    pin += PIN_ALPHABET[randomInt(PIN_ALPHABET.length)];
  return pin;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Compares fixed-length digests so the time taken says nothing about the PIN. */
export function configuredPinChecker(pin: string): PinChecker {
  const expected = digest(pin.trim());
  return {
    async matches(candidate) {
      return timingSafeEqual(digest(candidate), expected);
    },
  };
}

export function hashedPinChecker(pinHash: string): PinChecker {
  return {
    async matches(candidate) {
      try {
        return await verify(pinHash, candidate);
      } catch {
        return false;
      }
    },
  };
}

/**
 * Uses DATA_ROOM_PIN when set; otherwise the stored hash, generating and announcing a PIN when
 * the database has none. Only the process that stored the hash prints the PIN.
 */
export async function loadPinChecker(
  db: Database,
  configuredPin: string | undefined,
  log: Logger,
): Promise<PinChecker> {
  if (configuredPin && configuredPin.trim() !== '') return configuredPinChecker(configuredPin);
  const stored = await db.query<{ value: string }>(
    'select value from data_room.settings where key = $1',
    [PIN_HASH_SETTING],
  );
  if (stored.rows[0]) return hashedPinChecker(stored.rows[0].value);

  const pin = generatePin();
  const pinHash = await hash(pin);
  const inserted = await db.query<{ value: string }>(
    `insert into data_room.settings (key, value) values ($1, $2)
     on conflict (key) do nothing returning value`,
    [PIN_HASH_SETTING, pinHash],
  );
  if (inserted.rows.length === 0) {
    const winner = await db.query<{ value: string }>(
      'select value from data_room.settings where key = $1',
      [PIN_HASH_SETTING],
    );
    return hashedPinChecker(winner.rows[0]!.value);
  }
  log.warn(
    `Data room PIN generated: ${pin} — it is stored only as a hash and will not be shown again. ` +
      `To choose your own, set DATA_ROOM_PIN (at most ${PIN_MAX_LENGTH} characters) and restart; ` +
      `to generate a new one, delete the row 'pin_hash' from data_room.settings and restart.`,
  );
  return hashedPinChecker(pinHash);
}
