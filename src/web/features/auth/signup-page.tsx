import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { useSignUp } from './api/sign-up';
import { authErrorMessage } from './auth-errors';
import { Field } from '@/components/ui/field';
import { AuthShell, Panel } from './auth-ui';

export function SignupPage() {
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const signUp = useSignUp();
  const tooShort = password.length > 0 && password.length < 8;

  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    signUp.mutate(
      { name, email, password },
      {
        onSuccess: (result) => {
          if (result.signedIn) void navigate('/account');
          else setSentTo(email.trim());
        },
        onError: (signUpError) => setError(authErrorMessage(signUpError)),
      },
    );
  }

  if (sentTo) {
    return (
      <AuthShell title="Check your email">
        <Panel className="grid gap-3">
          <p>
            We sent a confirmation link to <strong>{sentTo}</strong>. Open it to finish creating
            your account; it works for one hour.
          </p>
          <p className="text-sm text-muted-foreground">
            No mail? Check your spam folder, or{' '}
            <Link className="text-primary underline" to="/login">
              sign in
            </Link>{' '}
            to have the link sent again.
          </p>
        </Panel>
      </AuthShell>
    );
  }

  return (
    <AuthShell
      title="Create your account"
      intro="Join to follow courses, take notes and study with the coach."
    >
      <Panel>
        <form className="grid gap-5" onSubmit={submit} noValidate>
          <Field
            label="Name (optional)"
            autoComplete="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={80}
          />
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
            autoComplete="new-password"
            required
            hint="At least 8 characters. A few unrelated words make a strong passphrase."
            error={tooShort ? 'Use at least 8 characters.' : undefined}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            maxLength={128}
          />
          {error && <Notice tone="error">{error}</Notice>}
          <Button type="submit" disabled={signUp.isPending || !email.trim() || password.length < 8}>
            {signUp.isPending ? 'Creating account…' : 'Create account'}
          </Button>
        </form>
      </Panel>
      <p className="mt-6 text-sm">
        Already have an account?{' '}
        <Link className="text-primary underline underline-offset-4 hover:no-underline" to="/login">
          Sign in
        </Link>
      </p>
    </AuthShell>
  );
}
