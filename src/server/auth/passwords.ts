/**
 * Password hashing (argon2id, OWASP parameters) and the password rules: length, and
 * rejection of the most common passwords with GoTrue's `weak_password` error.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { AuthError, type WeakPasswordReason } from './errors';

export const MIN_PASSWORD_LENGTH = 8;
/** Long passphrases are welcome; the cap only bounds the hashing work per request. */
export const MAX_PASSWORD_LENGTH = 128;

/** OWASP Password Storage Cheat Sheet: argon2id, 19 MiB, 2 iterations, 1 lane. */
const argonOptions = {
  // Algorithm.Argon2id; the enum is const and cannot be imported as a value here.
  algorithm: 2 as Algorithm.Argon2id,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, argonOptions);
}

/**
 * A hash of a random password with the same parameters, verified when an account has no
 * password (or no account exists), so both paths do one argon2 verification of equal cost and
 * timing does not tell which addresses have an account.
 */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hash(randomBytes(24).toString('base64url'), argonOptions);
  return dummyHash;
}

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    await verify(await dummyPasswordHash(), password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let commonPasswords: Set<string> | undefined;

function loadCommonPasswords(): Set<string> {
  const file = fileURLToPath(new URL('./common-passwords.txt', import.meta.url));
  return new Set(
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .map((line) => line.trim().toLowerCase())
      .filter((line) => line && !line.startsWith('#')),
  );
}

export function isCommonPassword(password: string): boolean {
  commonPasswords ??= loadCommonPasswords();
  return commonPasswords.has(password.toLowerCase());
}

/** Throws `weak_password` (422) with the reasons supabase-js exposes as `error.reasons`. */
export function checkPasswordStrength(
  password: unknown,
  minLength = MIN_PASSWORD_LENGTH,
): asserts password is string {
  if (typeof password !== 'string' || password === '') {
    throw new AuthError(422, 'validation_failed', 'Password is required.');
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw new AuthError(
      422,
      'validation_failed',
      `Password is too long: at most ${MAX_PASSWORD_LENGTH} characters.`,
    );
  }
  const reasons: WeakPasswordReason[] = [];
  const messages: string[] = [];
  if ([...password].length < minLength) {
    reasons.push('length');
    messages.push(`Password should be at least ${minLength} characters.`);
  }
  if (isCommonPassword(password)) {
    reasons.push('pwned');
    messages.push('Password is one of the most commonly used passwords; choose another.');
  }
  if (reasons.length > 0) {
    throw new AuthError(422, 'weak_password', messages.join(' '), {
      weak_password: { reasons, message: messages.join(' ') },
    });
  }
}
