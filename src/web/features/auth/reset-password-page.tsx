import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { useChangePassword } from './api/change-password';
import { authErrorMessage } from './auth-errors';
import { startAuth, useAuth } from './auth-store';
import { AuthShell, Field, Panel, redirectError } from './auth-ui';
import { useSecondFactorGate } from './second-factor-gate';

export function ResetPasswordPage() {
  const navigate = useNavigate();
  const auth = useAuth();
  const [linkError] = useState(() =>
    typeof window === 'undefined' ? undefined : redirectError(window.location),
  );
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | null>(null);
  const change = useChangePassword();
  const gate = useSecondFactorGate();
  const reason =
    'Your account has two-factor authentication: enter a code from your authenticator app, or a recovery code, to set the new password.';

  useEffect(() => {
    void startAuth().catch(() => undefined);
  }, []);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (password !== repeat) {
      setError('The two passwords do not match.');
      return;
    }
    setError(null);
    const run = () =>
      change.mutate(
        { password },
        {
          onSuccess: async () => {
            const { toast } = await import('sonner');
            toast.success('Your password is changed. Your other sessions were signed out.');
            void navigate('/account');
          },
          onError: (updateError) => {
            if (!gate.retryAfterCode(updateError, reason, run)) {
              setError(authErrorMessage(updateError));
            }
          },
        },
      );
    gate.guard(reason, run);
  }

  const waiting = auth.status === 'idle' || auth.status === 'loading';
  return (
    <AuthShell title="Choose a new password">
      <Panel>
        {linkError ? (
          <div className="grid gap-4">
            <Notice tone="error">This reset link cannot be used: {linkError}.</Notice>
            <Link className="text-primary underline" to="/forgot-password">
              Request a new link
            </Link>
          </div>
        ) : waiting ? (
          <p aria-busy="true">Checking your reset link…</p>
        ) : auth.status !== 'signed-in' ? (
          <div className="grid gap-4">
            <p>Open this page from the link in your password reset email.</p>
            <Link className="text-primary underline" to="/forgot-password">
              Request a reset link
            </Link>
          </div>
        ) : gate.prompt ? (
          gate.prompt
        ) : (
          <form className="grid gap-5" onSubmit={submit} noValidate>
            <Field
              label="New password"
              type="password"
              autoComplete="new-password"
              hint="At least 8 characters."
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              maxLength={128}
            />
            <Field
              label="Repeat the new password"
              type="password"
              autoComplete="new-password"
              required
              value={repeat}
              onChange={(e) => setRepeat(e.target.value)}
              maxLength={128}
            />
            {error && <Notice tone="error">{error}</Notice>}
            <Button type="submit" disabled={change.isPending || password.length < 8 || !repeat}>
              {change.isPending ? 'Saving…' : 'Save new password'}
            </Button>
          </form>
        )}
      </Panel>
    </AuthShell>
  );
}
