/** Email change (confirmed by a link to the new address) and password change (by a code). */
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { emailSchema, useChangeEmail } from './api/change-email';
import { useChangePassword, useSendReauthenticationCode } from './api/change-password';
import { Field } from '@/components/ui/field';

/** The auth service's error codes, in words a learner can act on. */
function authMessage(error: Error): React.ReactNode {
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'reauthentication_not_valid':
      return 'That code is wrong or has expired. Send a new code and try again.';
    case 'insufficient_aal':
      return (
        <>
          Your account uses two-factor authentication: confirm your second factor on the{' '}
          <Link to="/account" className="underline">
            account screen
          </Link>{' '}
          first, then try again.
        </>
      );
    case 'same_password':
      return 'The new password is the same as the current one.';
    case 'email_exists':
      return 'Another account already uses that email address.';
    case 'over_email_send_rate_limit':
      return 'Too many emails were sent. Wait a minute and try again.';
    default:
      return error.message;
  }
}

export function EmailForm({ email }: { email: string }) {
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [sentTo, setSentTo] = useState<string>();
  const change = useChangeEmail();

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = emailSchema.safeParse({ email: value });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message);
      return;
    }
    if (parsed.data.email.toLowerCase() === email.toLowerCase()) {
      setFieldError('That is already your email address.');
      return;
    }
    setFieldError(undefined);
    change.mutate(parsed.data.email, {
      onSuccess: () => {
        setSentTo(parsed.data.email);
        setValue('');
      },
    });
  }

  return (
    <form noValidate onSubmit={submit} className="grid max-w-lg gap-3" aria-label="Email address">
      <h3 className="font-medium">Email address</h3>
      <p className="text-sm text-muted-foreground">
        You sign in with <strong className="text-foreground">{email}</strong>.
      </p>
      <Field
        label="New email address"
        type="email"
        autoComplete="email"
        value={value}
        onChange={(event) => setValue(event.target.value)}
        error={fieldError}
        hint="We send a confirmation link to the new address; the change takes effect when you open it. Your current address is told about the change."
      />
      {sentTo && (
        <Notice tone="success">
          Check {sentTo} for the confirmation link. Until you open it, you keep signing in with{' '}
          {email}.
        </Notice>
      )}
      {change.isError && <Notice tone="error">{authMessage(change.error)}</Notice>}
      <div>
        <Button type="submit" variant="outline" disabled={change.isPending}>
          {change.isPending ? 'Sending…' : 'Change email'}
        </Button>
      </div>
    </form>
  );
}

export function PasswordForm() {
  const [codeSent, setCodeSent] = useState(false);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [nonce, setNonce] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string; nonce?: string }>({});
  const send = useSendReauthenticationCode();
  const change = useChangePassword();

  function sendCode() {
    send.mutate(undefined, {
      onSuccess: () => {
        setCodeSent(true);
        toast.success('We emailed you a 6-digit security code.');
      },
    });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof errors = {};
    if (password.length < 8) found.password = 'Use at least 8 characters.';
    if (confirm !== password) found.confirm = 'The two passwords differ.';
    if (!/^\d{6}$/.test(nonce.trim())) found.nonce = 'Enter the 6-digit code from the email.';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    change.mutate(
      { password, nonce },
      {
        onSuccess: () => {
          toast.success('Password changed. Your other sessions were signed out.');
          setPassword('');
          setConfirm('');
          setNonce('');
          setCodeSent(false);
        },
      },
    );
  }

  return (
    <div className="grid max-w-lg gap-3 border-t pt-4">
      <h3 className="font-medium">Password</h3>
      <p className="text-sm text-muted-foreground">
        To change your password, first confirm it is you: we email a security code to your address.
        Changing it signs out your other sessions.
      </p>
      {!codeSent ? (
        <div>
          <Button type="button" variant="outline" onClick={sendCode} disabled={send.isPending}>
            {send.isPending ? 'Sending…' : 'Email me a security code'}
          </Button>
        </div>
      ) : (
        <form noValidate onSubmit={submit} className="grid gap-3" aria-label="New password">
          <Field
            label="Security code from your email"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={nonce}
            onChange={(event) => setNonce(event.target.value)}
            error={errors.nonce}
          />
          <Field
            label="New password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            error={errors.password}
            hint="At least 8 characters; a passphrase of several words is easiest to remember."
          />
          <Field
            label="Repeat the new password"
            type="password"
            autoComplete="new-password"
            value={confirm}
            onChange={(event) => setConfirm(event.target.value)}
            error={errors.confirm}
          />
          {change.isError && <Notice tone="error">{authMessage(change.error)}</Notice>}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={change.isPending}>
              {change.isPending ? 'Changing…' : 'Change password'}
            </Button>
            <Button type="button" variant="ghost" onClick={sendCode} disabled={send.isPending}>
              Send a new code
            </Button>
          </div>
        </form>
      )}
      {send.isError && <Notice tone="error">{authMessage(send.error)}</Notice>}
    </div>
  );
}
