import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { useSignUpSettings } from './api/get-sign-up-settings';
import { useSignUp } from './api/sign-up';
import { authErrorMessage } from './auth-errors';
import { Field } from '@/components/ui/field';
import { AuthShell, Panel } from './auth-ui';

export function SignupPage() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const settings = useSignUpSettings();
  // Until the server says otherwise the field shows: the spec's beta gates sign-up.
  const gated = settings.data?.betaGate !== false;
  const couponRequired = settings.data?.betaGate === true;
  const [coupon, setCoupon] = useState(() => search.get('coupon') ?? '');
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
      { name, email, password, coupon: gated ? coupon : '' },
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
      intro={
        couponRequired
          ? 'Lyceum is in its beta: joining needs the coupon code you were given.'
          : 'Join to follow courses, take notes and study with the coach.'
      }
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
          {gated && (
            <Field
              label={couponRequired ? 'Coupon code' : 'Coupon code (optional)'}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              required={couponRequired}
              hint="Upper or lower case, with its hyphens, e.g. LYC-4F2A9C-D81E07."
              value={coupon}
              onChange={(e) => setCoupon(e.target.value)}
              maxLength={40}
            />
          )}
          {error && <Notice tone="error">{error}</Notice>}
          <Button
            type="submit"
            disabled={
              signUp.isPending ||
              !email.trim() ||
              password.length < 8 ||
              (couponRequired && !coupon.trim())
            }
          >
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
