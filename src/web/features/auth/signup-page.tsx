import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { authErrorMessage } from './auth-errors';
import { startAuth } from './auth-store';
import { Notice } from '@/components/ui/notice';
import { AuthShell, Field, Panel } from './auth-ui';

export function SignupPage() {
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const tooShort = password.length > 0 && password.length < 8;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const client = await startAuth();
      const { data, error: signUpError } = await client.auth.signUp({
        email: email.trim(),
        password,
        options: {
          emailRedirectTo: `${window.location.origin}/auth/confirm`,
          data: name.trim() ? { display_name: name.trim(), full_name: name.trim() } : {},
        },
      });
      if (signUpError) setError(authErrorMessage(signUpError));
      else if (data.session) void navigate('/account');
      else setSentTo(email.trim());
    } catch (caught) {
      setError(authErrorMessage(caught));
    } finally {
      setBusy(false);
    }
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
          <Button type="submit" disabled={busy || !email.trim() || password.length < 8}>
            {busy ? 'Creating account…' : 'Create account'}
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
