import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { authErrorMessage } from './auth-errors';
import { Notice } from '@/components/ui/notice';
import { useSessions } from './api/get-sessions';
import { useSignOut } from './api/sign-out';
import { useAuth } from './auth-store';
import { accessTokenClaims } from './session-claims';
import { Panel } from './auth-ui';
import { useSecondFactorGate } from './second-factor-gate';

/** "Firefox on Linux" from a user agent; the raw string when nothing matches. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : /node|undici/i.test(userAgent)
            ? 'API client'
            : undefined;
  const os = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : undefined;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os ?? userAgent.slice(0, 60);
}

const dateTime = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The account's sessions, with sign-out of every other device. */
export function SessionsSection({ refreshedAt }: { refreshedAt: number | null }) {
  const auth = useAuth();
  const accessToken = auth.session?.access_token ?? '';
  const sessionId = accessTokenClaims(accessToken).session_id ?? accessToken;
  const list = useSessions({ id: sessionId, accessToken });
  const signOut = useSignOut();
  const gate = useSecondFactorGate();
  const [status, setStatus] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const sessions = list.data ?? null;
  const busy = signOut.isPending;

  function signOutOthers() {
    setStatus(null);
    // supabase-js reports a refused sign-out of others as success, so the level is checked first.
    gate.guard(
      'Confirm it is you with your second step (authenticator app, security key or text message) to sign out your other sessions.',
      () =>
        signOut.mutate('others', {
          onSuccess: () =>
            setStatus({ kind: 'success', text: 'You are signed out everywhere else.' }),
          onError: (error) => setStatus({ kind: 'error', text: authErrorMessage(error) }),
        }),
    );
  }

  const others = (sessions ?? []).filter((s) => !s.current).length;
  const shown =
    status ?? (list.error ? { kind: 'error' as const, text: list.error.message } : null);
  return (
    <Panel aria-labelledby="sessions-title">
      <h2 id="sessions-title" className="text-lg font-semibold">
        Active sessions
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        Devices where you are signed in.
        {refreshedAt &&
          ` This session was last renewed at ${new Date(refreshedAt).toLocaleTimeString()}.`}
      </p>
      {list.isPending && !status && (
        <p className="mt-4 text-sm" aria-busy="true">
          Loading sessions…
        </p>
      )}
      {sessions && (
        <ul className="mt-4 divide-y rounded-md border">
          {sessions.map((s) => (
            <li
              key={s.id}
              className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm"
            >
              <div>
                <p className="font-medium">
                  {describeDevice(s.user_agent)}{' '}
                  {s.current && <Badge variant="secondary">This device</Badge>}
                </p>
                <p className="text-muted-foreground">
                  Signed in {dateTime(s.created_at)} · last active {dateTime(s.refreshed_at)}
                  {s.ip ? ` · ${s.ip}` : ''}
                  {s.aal === 'aal2' ? ' · verified with two-factor' : ''}
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
      {shown && (
        <div className="mt-4">
          <Notice tone={shown.kind}>{shown.text}</Notice>
        </div>
      )}
      {gate.prompt ? (
        <div className="mt-4">{gate.prompt}</div>
      ) : (
        <Button
          type="button"
          variant="outline"
          className="mt-4"
          disabled={busy || others === 0}
          onClick={signOutOthers}
        >
          {busy ? 'Signing out…' : `Sign out other sessions${others ? ` (${others})` : ''}`}
        </Button>
      )}
    </Panel>
  );
}
