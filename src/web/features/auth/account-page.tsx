import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { LogOut } from 'lucide-react';
import { isAuthError, type User } from '@supabase/supabase-js';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { useChangeEmail } from './api/change-email';
import { useChangePassword } from './api/change-password';
import { useProfile, type Profile } from './api/get-profile';
import { useUser } from './api/get-user';
import { useReauthenticate } from './api/reauthenticate';
import { useSignOut } from './api/sign-out';
import { useUpdateProfile } from './api/update-profile';
import { authErrorMessage } from './auth-errors';
import { startAuth, useAuth } from './auth-store';
import { Field } from '@/components/ui/field';
import { AuthShell, Panel } from './auth-ui';
import { PasskeysSection } from './passkeys-section';
import { PhoneFactorsSection } from './phone-factors-section';
import { RecoveryCodesPanel, RecoveryCodesProvider } from './recovery-codes';
import { SecurityKeysSection } from './security-keys-section';
import { SessionsSection } from './sessions-section';
import { TwoFactorSection } from './two-factor-section';
import { useSecondFactorGate } from './second-factor-gate';

type Status = { kind: 'error' | 'success'; text: string } | null;

function SectionTitle({ id, children }: { id: string; children: string }) {
  return (
    <h2 id={id} className="text-lg font-semibold">
      {children}
    </h2>
  );
}

const noProfile: Profile = { displayName: '', fullName: '' };

function ProfileSection({ userId }: { userId: string }) {
  const profile = useProfile(userId);
  if (profile.isPending) return <ProfileForm key="loading" userId={userId} initial={null} />;
  return (
    <ProfileForm
      key="loaded"
      userId={userId}
      initial={profile.data ?? noProfile}
      loadError={profile.error?.message}
    />
  );
}

/** The profile form; `initial` is null while the saved names are still loading. */
function ProfileForm({
  userId,
  initial,
  loadError,
}: {
  userId: string;
  initial: Profile | null;
  loadError?: string;
}) {
  const [displayName, setDisplayName] = useState(initial?.displayName ?? '');
  const [fullName, setFullName] = useState(initial?.fullName ?? '');
  const [status, setStatus] = useState<Status>(
    loadError ? { kind: 'error', text: `Could not load your profile: ${loadError}` } : null,
  );
  const update = useUpdateProfile();
  const loaded = initial !== null;

  function save(event: FormEvent) {
    event.preventDefault();
    setStatus(null);
    update.mutate(
      { userId, displayName, fullName },
      {
        onSuccess: () => setStatus({ kind: 'success', text: 'Profile saved.' }),
        onError: (error) => setStatus({ kind: 'error', text: `Could not save: ${error.message}` }),
      },
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
        <Button type="submit" className="justify-self-start" disabled={update.isPending || !loaded}>
          {update.isPending ? 'Saving…' : 'Save profile'}
        </Button>
      </form>
    </Panel>
  );
}

function EmailSection({ email, pending }: { email: string; pending?: string }) {
  const [next, setNext] = useState('');
  const [status, setStatus] = useState<Status>(null);
  const change = useChangeEmail();
  const gate = useSecondFactorGate();
  const reason =
    'Confirm it is you with your second step (authenticator app, security key or text message) to change your email address.';

  function submit(event: FormEvent) {
    event.preventDefault();
    setStatus(null);
    const address = next.trim();
    const run = () =>
      change.mutate(address, {
        onSuccess: () => {
          setStatus({
            kind: 'success',
            text: `We sent a confirmation link to ${address}. The change takes effect when you open it.`,
          });
          setNext('');
        },
        onError: (error) => {
          if (!gate.retryAfterCode(error, reason, run)) {
            setStatus({ kind: 'error', text: authErrorMessage(error) });
          }
        },
      });
    gate.guard(reason, run);
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
        {!gate.prompt && (
          <Button
            type="submit"
            className="justify-self-start"
            disabled={change.isPending || !next.trim()}
          >
            {change.isPending ? 'Sending…' : 'Change email'}
          </Button>
        )}
      </form>
      {gate.prompt && <div className="mt-4">{gate.prompt}</div>}
    </Panel>
  );
}

function PasswordSection() {
  const [password, setPassword] = useState('');
  const [nonce, setNonce] = useState('');
  const [needsNonce, setNeedsNonce] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const change = useChangePassword();
  const reauthenticate = useReauthenticate();
  const gate = useSecondFactorGate();
  const busy = change.isPending || reauthenticate.isPending;
  const reason =
    'Confirm it is you with your second step (authenticator app, security key or text message) to change your password.';

  function sendCode() {
    reauthenticate.mutate(undefined, {
      onSuccess: () => {
        setNeedsNonce(true);
        setStatus({
          kind: 'success',
          text: 'For your security we emailed you a 6-digit code. Enter it to change your password.',
        });
      },
      onError: (error) => setStatus({ kind: 'error', text: authErrorMessage(error) }),
    });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setStatus(null);
    const run = () =>
      change.mutate(
        { password, nonce: needsNonce ? nonce : undefined },
        {
          onSuccess: () => {
            setStatus({
              kind: 'success',
              text: 'Your password is changed. Your other sessions were signed out; this one stays signed in.',
            });
            setPassword('');
            setNonce('');
            setNeedsNonce(false);
          },
          onError: (error) => {
            if (isAuthError(error) && error.code === 'reauthentication_needed') sendCode();
            else if (!gate.retryAfterCode(error, reason, run)) {
              setStatus({ kind: 'error', text: authErrorMessage(error) });
            }
          },
        },
      );
    gate.guard(reason, run);
  }

  return (
    <Panel aria-labelledby="password-title">
      <SectionTitle id="password-title">Password</SectionTitle>
      <form className="mt-4 grid gap-4" onSubmit={submit} noValidate>
        <Field
          label="New password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters. Changing it signs out your other sessions. Sessions older than a day need a code we email you."
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
        {!gate.prompt && (
          <Button
            type="submit"
            className="justify-self-start"
            disabled={busy || password.length < 8 || (needsNonce && nonce.length !== 6)}
          >
            {busy ? 'Saving…' : 'Change password'}
          </Button>
        )}
      </form>
      {gate.prompt && <div className="mt-4">{gate.prompt}</div>}
    </Panel>
  );
}

function AccountSettings({ sessionUser }: { sessionUser: User }) {
  const navigate = useNavigate();
  const auth = useAuth();
  const user = useUser(sessionUser).data ?? sessionUser;
  const signOut = useSignOut();

  async function signOutEverywhere() {
    // supabase-js forgets the local session even when the service call fails, so the user is
    // signed out here either way. Awaited, not a mutate() callback: the signed-out store
    // unmounts this component before such a callback could run.
    await signOut.mutateAsync('global').catch(() => undefined);
    void navigate('/login');
  }

  return (
    <AuthShell title="Account settings" intro={`Signed in as ${user.email ?? ''}`} wide>
      <div className="grid gap-6">
        <ProfileSection userId={user.id} />
        <EmailSection email={user.email ?? ''} pending={user.new_email} />
        <PasswordSection />
        <RecoveryCodesProvider>
          <TwoFactorSection user={user} />
          <SecurityKeysSection user={user} />
          <PhoneFactorsSection user={user} />
          <RecoveryCodesPanel user={user} />
        </RecoveryCodesProvider>
        <PasskeysSection />
        <SessionsSection refreshedAt={auth.refreshedAt} />
        <div>
          <Button type="button" variant="outline" onClick={() => void signOutEverywhere()}>
            <LogOut aria-hidden="true" />
            Sign out
          </Button>
        </div>
      </div>
    </AuthShell>
  );
}

export function AccountPage() {
  const auth = useAuth();

  useEffect(() => {
    void startAuth().catch(() => undefined);
  }, []);

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
  return <AccountSettings sessionUser={auth.session.user} />;
}
