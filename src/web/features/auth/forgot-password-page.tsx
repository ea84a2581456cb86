import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { authErrorMessage } from './auth-errors';
import { startAuth } from './auth-store';
import { Notice } from '@/components/ui/notice';
import { AuthShell, Field, Panel } from './auth-ui';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const client = await startAuth();
      const { error: recoverError } = await client.auth.resetPasswordForEmail(email.trim(), {
        redirectTo: `${window.location.origin}/reset-password`,
      });
      if (recoverError) setError(authErrorMessage(recoverError));
      else setSent(true);
    } catch (caught) {
      setError(authErrorMessage(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthShell title="Forgot your password?" intro="We will email you a link to choose a new one.">
      <Panel>
        {sent ? (
          <Notice tone="success">
            If an account uses {email.trim()}, a reset link is on its way. It works for one hour.
          </Notice>
        ) : (
          <form className="grid gap-5" onSubmit={submit} noValidate>
            <Field
              label="Email"
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
            {error && <Notice tone="error">{error}</Notice>}
            <Button type="submit" disabled={busy || !email.trim()}>
              {busy ? 'Sending…' : 'Send reset link'}
            </Button>
          </form>
        )}
      </Panel>
      <p className="mt-6 text-sm">
        <Link className="text-primary underline underline-offset-4 hover:no-underline" to="/login">
          Back to sign in
        </Link>
      </p>
    </AuthShell>
  );
}
