import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { brand } from '@common/brand';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { useChangePassword } from './api/change-password';
import { authErrorMessage } from './auth-errors';
import { startAuth, useAuth } from './auth-store';
import { Field } from '@/components/ui/field';
import { AuthShell, Panel, redirectError } from './auth-ui';
import { useSecondFactorGate } from './second-factor-gate';

export function ResetPasswordPage() {
  const navigate = useNavigate();
  const auth = useAuth();
  const [linkError] = useState(() =>
    typeof window === 'undefined' ? undefined : redirectError(window.location),
  );
  // An invitation's link lands here too (decision 0130): the invitee chooses a first password
  // and goes on to the learning app.
  const [invited] = useState(
    () =>
      typeof window !== 'undefined' &&
      new URLSearchParams(window.location.search).get('invited') === '1',
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
            if (invited) {
              toast.success('Your password is set. Welcome!');
              void navigate('/app');
              return;
            }
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
    <AuthShell title={invited ? 'Choose your password' : 'Choose a new password'}>
      <Panel>
        {linkError ? (
          <div className="grid gap-4">
            <Notice tone="error">
              {invited ? 'This invitation link' : 'This reset link'} cannot be used: {linkError}.
            </Notice>
            {invited ? (
              <p>Ask your administrator to send the invitation again.</p>
            ) : (
              <Link className="text-primary underline" to="/forgot-password">
                Request a new link
              </Link>
            )}
          </div>
        ) : waiting ? (
          <p aria-busy="true">Checking your {invited ? 'invitation' : 'reset'} link…</p>
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
            {invited && (
              <p>You are invited to {brand.product}. Choose a password to finish your account.</p>
            )}
            <Field
              label={invited ? 'Password' : 'New password'}
              type="password"
              autoComplete="new-password"
              hint="At least 8 characters."
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              maxLength={128}
            />
            <Field
              label={invited ? 'Repeat the password' : 'Repeat the new password'}
              type="password"
              autoComplete="new-password"
              required
              value={repeat}
              onChange={(e) => setRepeat(e.target.value)}
              maxLength={128}
            />
            {error && <Notice tone="error">{error}</Notice>}
            <Button type="submit" disabled={change.isPending || password.length < 8 || !repeat}>
              {change.isPending ? 'Saving…' : invited ? 'Set password' : 'Save new password'}
            </Button>
          </form>
        )}
      </Panel>
    </AuthShell>
  );
}
