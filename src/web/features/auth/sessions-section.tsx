import { useEffect, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { authErrorMessage } from './auth-errors';
import { startAuth, useAuth } from './auth-store';
import { Notice } from '@/components/ui/notice';
import { Panel } from './auth-ui';

interface SessionItem {
  id: string;
  aal: string;
  user_agent: string | null;
  ip: string | null;
  created_at: string;
  refreshed_at: string;
  current: boolean;
}

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

/** The user's sessions, or the error message to show. */
async function fetchSessions(token: string): Promise<SessionItem[] | string> {
  const configResponse = await fetch('/client-config.json');
  const { apiUrl, anonKey } = (await configResponse.json()) as { apiUrl: string; anonKey: string };
  const response = await fetch(`${apiUrl}/auth/v1/user/sessions`, {
    headers: { apikey: anonKey, authorization: `Bearer ${token}` },
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    return `Could not list your sessions: ${body.message ?? response.statusText}`;
  }
  return (await response.json()) as SessionItem[];
}

const dateTime = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The account's sessions, with sign-out of every other device. */
export function SessionsSection({ refreshedAt }: { refreshedAt: number | null }) {
  const auth = useAuth();
  const token = auth.session?.access_token;
  const [sessions, setSessions] = useState<SessionItem[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);

  const [reloadKey, setReloadKey] = useState(0);

  useEffect(() => {
    if (!token) return;
    let cancelled = false;
    void fetchSessions(token).then((result) => {
      if (cancelled) return;
      if (typeof result === 'string') setStatus({ kind: 'error', text: result });
      else setSessions(result);
    });
    return () => {
      cancelled = true;
    };
  }, [token, reloadKey]);

  async function signOutOthers() {
    setBusy(true);
    setStatus(null);
    const client = await startAuth();
    const { error } = await client.auth.signOut({ scope: 'others' });
    setBusy(false);
    if (error) setStatus({ kind: 'error', text: authErrorMessage(error) });
    else {
      setStatus({ kind: 'success', text: 'You are signed out everywhere else.' });
      setReloadKey((key) => key + 1);
    }
  }

  const others = (sessions ?? []).filter((s) => !s.current).length;
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
      {sessions === null && !status && (
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
      {status && (
        <div className="mt-4">
          <Notice tone={status.kind}>{status.text}</Notice>
        </div>
      )}
      <Button
        type="button"
        variant="outline"
        className="mt-4"
        disabled={busy || others === 0}
        onClick={() => void signOutOthers()}
      >
        {busy ? 'Signing out…' : `Sign out other sessions${others ? ` (${others})` : ''}`}
      </Button>
    </Panel>
  );
}
