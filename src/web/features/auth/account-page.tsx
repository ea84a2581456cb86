import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { LogOut } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { authErrorMessage } from './auth-errors';
import { startAuth, useAuth } from './auth-store';
import { Notice } from '@/components/ui/notice';
import { AuthShell, Field, Panel } from './auth-ui';
import { SessionsSection } from './sessions-section';
import { TwoFactorSection } from './two-factor-section';

type Status = { kind: 'error' | 'success'; text: string } | null;

function SectionTitle({ id, children }: { id: string; children: string }) {
  return (
    <h2 id={id} className="text-lg font-semibold">
      {children}
    </h2>
  );
}

function ProfileSection({ userId }: { userId: string }) {
  const [displayName, setDisplayName] = useState('');
  const [fullName, setFullName] = useState('');
  const [loaded, setLoaded] = useState(false);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);

  useEffect(() => {
    void (async () => {
      const client = await startAuth();
      const { data, error } = await client
        .from('profiles')
        .select('display_name, full_name')
        .eq('id', userId)
        .maybeSingle();
      if (error)
        setStatus({ kind: 'error', text: `Could not load your profile: ${error.message}` });
      setDisplayName((data?.display_name as string | null) ?? '');
      setFullName((data?.full_name as string | null) ?? '');
      setLoaded(true);
    })();
  }, [userId]);

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setStatus(null);
    const client = await startAuth();
    const { error } = await client
      .from('profiles')
      .update({
        display_name: displayName.trim() || null,
        full_name: fullName.trim() || null,
        updated_at: new Date().toISOString(),
      })
      .eq('id', userId);
    setBusy(false);
    setStatus(
      error
        ? { kind: 'error', text: `Could not save: ${error.message}` }
        : { kind: 'success', text: 'Profile saved.' },
    );
  }

  return (
    <Panel aria-labelledby="profile-title">
      <SectionTitle id="profile-title">Profile</SectionTitle>
      <form className="mt-4 grid gap-4 sm:grid-cols-2" onSubmit={save} noValidate>
        <Field
          label="Display name"
          value={displayName}
          maxLength={80}
          disabled={!loaded}
          onChange={(e) => setDisplayName(e.target.value)}
        />
        <Field
          label="Full name"
          autoComplete="name"
          value={fullName}
          maxLength={120}
          disabled={!loaded}
          onChange={(e) => setFullName(e.target.value)}
        />
        {status && (
          <div className="sm:col-span-2">
            <Notice tone={status.kind}>{status.text}</Notice>
          </div>
        )}
        <Button type="submit" className="justify-self-start" disabled={busy || !loaded}>
          {busy ? 'Saving…' : 'Save profile'}
        </Button>
      </form>
    </Panel>
  );
}

function EmailSection({ email, pending }: { email: string; pending?: string }) {
  const [next, setNext] = useState('');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setStatus(null);
    const client = await startAuth();
    const { error } = await client.auth.updateUser(
      { email: next.trim() },
      { emailRedirectTo: `${window.location.origin}/account` },
    );
    setBusy(false);
    if (error) setStatus({ kind: 'error', text: authErrorMessage(error) });
    else {
      setStatus({
        kind: 'success',
        text: `We sent a confirmation link to ${next.trim()}. The change takes effect when you open it.`,
      });
      setNext('');
    }
  }

  return (
    <Panel aria-labelledby="email-title">
      <SectionTitle id="email-title">Email address</SectionTitle>
      <p className="mt-1 text-sm text-muted-foreground">
        You sign in with <strong className="text-foreground">{email}</strong>.
        {pending && ` Waiting for confirmation of ${pending}.`}
      </p>
      <form className="mt-4 grid gap-4" onSubmit={submit} noValidate>
        <Field
          label="New email address"
          type="email"
          autoComplete="email"
          value={next}
          onChange={(e) => setNext(e.target.value)}
        />
        {status && <Notice tone={status.kind}>{status.text}</Notice>}
        <Button type="submit" className="justify-self-start" disabled={busy || !next.trim()}>
          {busy ? 'Sending…' : 'Change email'}
        </Button>
      </form>
    </Panel>
  );
}

function PasswordSection() {
  const [password, setPassword] = useState('');
  const [nonce, setNonce] = useState('');
  const [needsNonce, setNeedsNonce] = useState(false);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setStatus(null);
    const client = await startAuth();
    const { error } = await client.auth.updateUser(
      needsNonce ? { password, nonce: nonce.trim() } : { password },
    );
    if (error?.code === 'reauthentication_needed') {
      const sent = await client.auth.reauthenticate();
      setBusy(false);
      if (sent.error) {
        setStatus({ kind: 'error', text: authErrorMessage(sent.error) });
        return;
      }
      setNeedsNonce(true);
      setStatus({
        kind: 'success',
        text: 'For your security we emailed you a 6-digit code. Enter it to change your password.',
      });
      return;
    }
    setBusy(false);
    if (error) setStatus({ kind: 'error', text: authErrorMessage(error) });
    else {
      setStatus({ kind: 'success', text: 'Your password is changed.' });
      setPassword('');
      setNonce('');
      setNeedsNonce(false);
    }
  }

  return (
    <Panel aria-labelledby="password-title">
      <SectionTitle id="password-title">Password</SectionTitle>
      <form className="mt-4 grid gap-4" onSubmit={submit} noValidate>
        <Field
          label="New password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters. Sessions older than a day need a code we email you."
          value={password}
          maxLength={128}
          onChange={(e) => setPassword(e.target.value)}
        />
        {needsNonce && (
          <Field
            label="Security code from your email"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={nonce}
            onChange={(e) => setNonce(e.target.value.replace(/\D/g, ''))}
          />
        )}
        {status && <Notice tone={status.kind}>{status.text}</Notice>}
        <Button
          type="submit"
          className="justify-self-start"
          disabled={busy || password.length < 8 || (needsNonce && nonce.length !== 6)}
        >
          {busy ? 'Saving…' : 'Change password'}
        </Button>
      </form>
    </Panel>
  );
}

export function AccountPage() {
  const navigate = useNavigate();
  const auth = useAuth();
  const [version, setVersion] = useState(0);
  const refreshUser = useCallback(() => setVersion((v) => v + 1), []);
  const [user, setUser] = useState(auth.session?.user ?? null);

  useEffect(() => {
    void startAuth().catch(() => undefined);
  }, []);

  useEffect(() => {
    if (auth.status !== 'signed-in') return;
    void (async () => {
      const client = await startAuth();
      const { data } = await client.auth.getUser();
      if (data.user) setUser(data.user);
    })();
  }, [auth.status, auth.session?.access_token, version]);

  async function signOut() {
    const client = await startAuth();
    await client.auth.signOut();
    void navigate('/login');
  }

  if (auth.status === 'idle' || auth.status === 'loading') {
    return (
      <AuthShell title="Account settings">
        <p aria-busy="true">Loading your account…</p>
      </AuthShell>
    );
  }
  if (auth.status !== 'signed-in' || !auth.session) {
    return (
      <AuthShell title="Account settings">
        <Panel className="grid gap-4">
          <p>Sign in to manage your profile, password, two-factor authentication and sessions.</p>
          <Button asChild className="justify-self-start">
            <Link to="/login">Sign in</Link>
          </Button>
        </Panel>
      </AuthShell>
    );
  }

  const current = user ?? auth.session.user;
  return (
    <AuthShell title="Account settings" intro={`Signed in as ${current.email ?? ''}`} wide>
      <div className="grid gap-6">
        <ProfileSection userId={current.id} />
        <EmailSection email={current.email ?? ''} pending={current.new_email} />
        <PasswordSection />
        <TwoFactorSection user={current} onChange={refreshUser} />
        <SessionsSection refreshedAt={auth.refreshedAt} />
        <div>
          <Button type="button" variant="outline" onClick={() => void signOut()}>
            <LogOut aria-hidden="true" />
            Sign out
          </Button>
        </div>
      </div>
    </AuthShell>
  );
}
