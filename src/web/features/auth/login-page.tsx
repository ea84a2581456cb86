import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { isAuthError } from '@supabase/supabase-js';
import { Building2, KeyRound } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { safeNextPath } from '@/lib/safe-next-path';
import { useResendConfirmation } from './api/resend-confirmation';
import { usePasskeysEnabled, useSignInWithPasskey } from './api/passkeys';
import { useSignIn } from './api/sign-in';
import { endSsoPending, ssoDomain, ssoPending, useSignInWithSso } from './api/sign-in-with-sso';
import { authErrorMessage } from './auth-errors';
import { startAuth, useAuth } from './auth-store';
import { Field } from '@/components/ui/field';
import { AuthShell, Panel, redirectError } from './auth-ui';
import { TotpStep } from './totp-step';

export function LoginPage() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  // Back to the page that sent the user here (the app's sign-in gate), if it is on this site.
  const next = safeNextPath(searchParams.get('next'), window.location.origin) ?? '/account';
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [unconfirmed, setUnconfirmed] = useState(false);
  const [needsTotp, setNeedsTotp] = useState(false);
  const signIn = useSignIn();
  const resend = useResendConfirmation();
  const passkeys = usePasskeysEnabled();
  const byPasskey = useSignInWithPasskey();

  function signInWithPasskey() {
    setError(null);
    byPasskey.mutate(undefined, {
      onSuccess: (result) => {
        if (result.needsTotp) setNeedsTotp(true);
        else void navigate(next, { replace: true });
      },
      onError: (passkeyError) => setError(authErrorMessage(passkeyError)),
    });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setUnconfirmed(false);
    signIn.mutate(
      { email, password },
      {
        onSuccess: (result) => {
          if (result.needsTotp) setNeedsTotp(true);
          else void navigate(next, { replace: true });
        },
        onError: (signInError) => {
          setUnconfirmed(isAuthError(signInError) && signInError.code === 'email_not_confirmed');
          setError(authErrorMessage(signInError));
        },
      },
    );
  }

  function resendLink() {
    resend.mutate(email, { onError: (resendError) => setError(authErrorMessage(resendError)) });
  }

  if (searchParams.get('sso') === '1') return <SsoSignIn next={next} />;

  if (needsTotp) {
    return (
      <AuthShell title="Sign in" intro="Your account is protected with two-factor authentication.">
        <TotpStep onVerified={() => void navigate(next, { replace: true })} />
      </AuthShell>
    );
  }

  return (
    <AuthShell title="Sign in" intro="Welcome back. Sign in to your learning account.">
      <Panel>
        <form className="grid gap-5" onSubmit={submit} noValidate>
          <Field
            label="Email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <Field
            label="Password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          {error && (
            <Notice tone="error">
              {error}
              {unconfirmed && !resend.isSuccess && (
                <>
                  {' '}
                  <button type="button" className="font-medium underline" onClick={resendLink}>
                    Send the link again
                  </button>
                </>
              )}
            </Notice>
          )}
          {resend.isSuccess && (
            <Notice tone="success">We sent a new confirmation link to {email.trim()}.</Notice>
          )}
          <Button type="submit" disabled={signIn.isPending || !email.trim() || !password}>
            {signIn.isPending ? 'Signing in…' : 'Sign in'}
          </Button>
        </form>
      </Panel>
      {passkeys.data === true && (
        <Button
          type="button"
          variant="outline"
          className="mt-4 w-full"
          disabled={byPasskey.isPending}
          onClick={signInWithPasskey}
        >
          <KeyRound aria-hidden="true" />
          {byPasskey.isPending ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
        </Button>
      )}
      <Button asChild variant="outline" className="mt-4 w-full">
        <Link to={`/login?${new URLSearchParams({ sso: '1', next }).toString()}`}>
          <Building2 aria-hidden="true" />
          Sign in with SSO
        </Link>
      </Button>
      <div className="mt-6 flex flex-wrap justify-between gap-3 text-sm">
        <Link
          className="text-primary underline underline-offset-4 hover:no-underline"
          to="/forgot-password"
        >
          Forgot your password?
        </Link>
        <Link className="text-primary underline underline-offset-4 hover:no-underline" to="/signup">
          Create an account
        </Link>
      </div>
    </AuthShell>
  );
}

/**
 * Single sign-on through the learner's organization (decision 0183): their university email or
 * its domain finds the organization's identity provider, and the browser goes there. Coming
 * back (`?sso=1`), the session in the address signs them in, or the provider's refusal is shown.
 */
function SsoSignIn({ next }: { next: string }) {
  const navigate = useNavigate();
  const auth = useAuth();
  const [input, setInput] = useState('');
  const [error, setError] = useState<string | null>(null);
  // Back from the identity provider: a refusal in the address, or a session (supabase-js takes
  // it from the address as soon as it loads, often before this page's code runs).
  const [returned] = useState(() => ({
    refusal: redirectError(window.location) ?? null,
    session: ssoPending() || /[#&]access_token=/.test(window.location.hash),
  }));
  const sso = useSignInWithSso();

  useEffect(() => {
    if (!returned.session) return;
    void startAuth().catch(() => undefined);
    if (returned.refusal) endSsoPending();
  }, [returned]);
  const signedIn = returned.session && !returned.refusal && auth.status === 'signed-in';
  useEffect(() => {
    if (!signedIn) return;
    endSsoPending();
    void navigate(next, { replace: true });
  }, [signedIn, navigate, next]);
  const failedReturn =
    returned.session &&
    !returned.refusal &&
    (auth.status === 'signed-out' || auth.status === 'error')
      ? 'The sign-in from your organization could not be completed. Try again.'
      : null;
  useEffect(() => {
    if (failedReturn) endSsoPending();
  }, [failedReturn]);

  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const found = ssoDomain(input);
    if ('problem' in found) {
      setError(found.problem);
      return;
    }
    sso.mutate(
      { domain: found.domain, next },
      {
        onError: (ssoError) => {
          const code = isAuthError(ssoError) ? ssoError.code : undefined;
          setError(
            code === 'sso_provider_not_found'
              ? `No organization signs in with SSO for ${found.domain}. Check the address, or sign in with your email and password.`
              : code === 'sso_provider_disabled'
                ? `Single sign-on for ${found.domain} is switched off at the moment. Ask your organization’s administrator, or sign in with your email and password.`
                : authErrorMessage(ssoError),
          );
        },
      },
    );
  }

  if (returned.session && !returned.refusal && !failedReturn) {
    return (
      <AuthShell title="Sign in with SSO">
        <Panel>
          <p role="status" aria-busy="true">
            Signing you in…
          </p>
        </Panel>
      </AuthShell>
    );
  }

  const shown = error ?? failedReturn ?? returned.refusal;
  return (
    <AuthShell
      title="Sign in with SSO"
      intro="Sign in through your university or organization’s own sign-in page."
    >
      <Panel>
        <form className="grid gap-5" onSubmit={submit} noValidate>
          <Field
            label="University email or domain"
            hint="For example name@university.edu or university.edu"
            type="text"
            inputMode="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            required
            value={input}
            onChange={(e) => setInput(e.target.value)}
          />
          {shown && (
            <Notice tone="error">
              {shown === returned.refusal && !error
                ? `Your organization’s sign-in did not complete: ${shown}`
                : shown}
            </Notice>
          )}
          <Button type="submit" disabled={sso.isPending || sso.isSuccess || !input.trim()}>
            {sso.isPending || sso.isSuccess ? 'Going to your organization…' : 'Continue'}
          </Button>
        </form>
      </Panel>
      <div className="mt-6 text-sm">
        <Link
          className="text-primary underline underline-offset-4 hover:no-underline"
          to={`/login?${new URLSearchParams({ next }).toString()}`}
        >
          Sign in with your email and password instead
        </Link>
      </div>
    </AuthShell>
  );
}
