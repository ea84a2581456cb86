import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { useTotpFactorId } from './api/get-totp-factor';
import { useVerifyTotp } from './api/verify-totp';
import { authErrorMessage } from './auth-errors';
import { useAuth } from './auth-store';
import { Field, Panel } from './auth-ui';

/** The second sign-in step: a code from the authenticator app raises the session to aal2. */
export function TotpStep({ onVerified }: { onVerified: () => void }) {
  const userId = useAuth().session?.user.id ?? '';
  const factor = useTotpFactorId(userId);
  const verify = useVerifyTotp();
  const factorId = factor.data ?? null;
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const shownError = error ?? (factor.error ? authErrorMessage(factor.error) : null);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!factorId) return;
    setError(null);
    verify.mutate(
      { factorId, code },
      {
        onSuccess: onVerified,
        onError: (verifyError) => {
          setError(authErrorMessage(verifyError));
          setCode('');
        },
      },
    );
  }

  return (
    <Panel>
      <form className="grid gap-5" onSubmit={submit} noValidate>
        <Field
          label="Authentication code"
          hint="Enter the 6-digit code from your authenticator app."
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={6}
          required
          autoFocus
          value={code}
          onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
        />
        {shownError && <Notice tone="error">{shownError}</Notice>}
        <Button type="submit" disabled={verify.isPending || code.length !== 6 || !factorId}>
          {verify.isPending ? 'Verifying…' : 'Verify'}
        </Button>
      </form>
    </Panel>
  );
}
