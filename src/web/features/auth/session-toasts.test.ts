import { describe, expect, it } from 'vitest';
import type { Session } from '@supabase/supabase-js';
import { sessionToast, storedSessionIds } from './session-toasts';

function token(claims: Record<string, unknown>): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'ES256' })}.${part(claims)}.signature`;
}

function session(id: string, options: { aal?: string; factor?: boolean } = {}): Session {
  return {
    access_token: token({ session_id: id, aal: options.aal ?? 'aal1' }),
    refresh_token: 'refresh',
    expires_in: 3600,
    token_type: 'bearer',
    user: {
      id: 'user-1',
      email: 'ada@example.com',
      app_metadata: {},
      user_metadata: {},
      aud: 'authenticated',
      created_at: '2026-11-23T00:00:00Z',
      factors: options.factor
        ? [
            {
              id: 'f1',
              factor_type: 'totp',
              status: 'verified',
              created_at: '',
              updated_at: '',
              friendly_name: '',
            },
          ]
        : [],
    },
  } as Session;
}

function storage(entries: Record<string, string>): Storage {
  const keys = Object.keys(entries);
  return {
    length: keys.length,
    key: (index: number) => keys[index] ?? null,
    getItem: (key: string) => entries[key] ?? null,
  } as Storage;
}

describe('sessionToast', () => {
  it('greets a session this browser has not seen: an actual sign-in', () => {
    expect(sessionToast('SIGNED_IN', session('new'), new Set(['old']))).toBe(
      'Signed in as ada@example.com.',
    );
  });

  it('stays quiet when supabase-js restores a stored session (page load, tab shown again)', () => {
    expect(sessionToast('SIGNED_IN', session('kept'), new Set(['kept']))).toBeUndefined();
    expect(sessionToast('INITIAL_SESSION', session('kept'), new Set())).toBeUndefined();
    expect(sessionToast('TOKEN_REFRESHED', session('kept'), new Set(['kept']))).toBeUndefined();
  });

  it('waits for the second factor before greeting, then reports the verification', () => {
    const pending = session('mfa', { factor: true });
    expect(sessionToast('SIGNED_IN', pending, new Set())).toBeUndefined();
    const verified = session('mfa', { factor: true, aal: 'aal2' });
    expect(sessionToast('MFA_CHALLENGE_VERIFIED', verified, new Set(['mfa']))).toBe(
      'Two-factor code verified.',
    );
  });

  it('reports sign-out and a recovery link', () => {
    expect(sessionToast('SIGNED_OUT', null, new Set())).toBe('You are signed out.');
    expect(sessionToast('PASSWORD_RECOVERY', session('r'), new Set())).toBe(
      'Choose a new password to finish resetting it.',
    );
  });
});

describe('storedSessionIds', () => {
  it('reads the session ids of stored Supabase sessions and ignores everything else', () => {
    const stored = storage({
      'sb-127-auth-token': JSON.stringify({ access_token: token({ session_id: 's1' }) }),
      'sb-other-auth-token': 'not json',
      'sb-empty-auth-token': JSON.stringify(null),
      theme: JSON.stringify({ access_token: token({ session_id: 'not-auth' }) }),
    });
    expect(storedSessionIds(stored)).toEqual(['s1']);
  });
});
