import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { useRequestPasswordReset } from './api/request-password-reset';
import { authErrorMessage } from './auth-errors';
import { Field } from '@/components/ui/field';
import { AuthShell, Panel } from './auth-ui';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const request = useRequestPasswordReset();
  const error = request.error ? authErrorMessage(request.error) : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    request.mutate(email);
  }

  return (
    <AuthShell title="Forgot your password?" intro="We will email you a link to choose a new one.">
      <Panel>
        {request.isSuccess ? (
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
            <Button type="submit" disabled={request.isPending || !email.trim()}>
              {request.isPending ? 'Sending…' : 'Send reset link'}
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
