import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { authErrorMessage } from './auth-errors';
import { startAuth } from './auth-store';
import { Notice } from '@/components/ui/notice';
import { AuthShell, Field, Panel } from './auth-ui';
import { TotpStep } from './totp-step';

export function LoginPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [unconfirmed, setUnconfirmed] = useState(false);
  const [resent, setResent] = useState(false);
  const [needsTotp, setNeedsTotp] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setUnconfirmed(false);
    try {
      const client = await startAuth();
      const { error: signInError } = await client.auth.signInWithPassword({
        email: email.trim(),
        password,
      });
      if (signInError) {
        setUnconfirmed(signInError.code === 'email_not_confirmed');
        setError(authErrorMessage(signInError));
        return;
      }
      const { data: aal } = await client.auth.mfa.getAuthenticatorAssuranceLevel();
      if (aal && aal.nextLevel === 'aal2' && aal.currentLevel !== 'aal2') setNeedsTotp(true);
      else void navigate('/account');
    } catch (caught) {
      setError(authErrorMessage(caught));
    } finally {
      setBusy(false);
    }
  }

  async function resend() {
    const client = await startAuth();
    const { error: resendError } = await client.auth.resend({
      type: 'signup',
      email: email.trim(),
      options: { emailRedirectTo: `${window.location.origin}/auth/confirm` },
    });
    if (resendError) setError(authErrorMessage(resendError));
    else setResent(true);
  }

  if (needsTotp) {
    return (
      <AuthShell title="Sign in" intro="Your account is protected with two-factor authentication.">
        <TotpStep onVerified={() => void navigate('/account')} />
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
              {unconfirmed && !resent && (
                <>
                  {' '}
                  <button
                    type="button"
                    className="font-medium underline"
                    onClick={() => void resend()}
                  >
                    Send the link again
                  </button>
                </>
              )}
            </Notice>
          )}
          {resent && (
            <Notice tone="success">We sent a new confirmation link to {email.trim()}.</Notice>
          )}
          <Button type="submit" disabled={busy || !email.trim() || !password}>
            {busy ? 'Signing in…' : 'Sign in'}
          </Button>
        </form>
      </Panel>
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
