import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { isAuthError } from '@supabase/supabase-js';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { safeNextPath } from '@/lib/safe-next-path';
import { useResendConfirmation } from './api/resend-confirmation';
import { useSignIn } from './api/sign-in';
import { authErrorMessage } from './auth-errors';
import { Field } from '@/components/ui/field';
import { AuthShell, Panel } from './auth-ui';
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
