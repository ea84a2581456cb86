import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { authErrorMessage } from './auth-errors';
import { startAuth } from './auth-store';
import { Notice } from '@/components/ui/notice';
import { Field, Panel } from './auth-ui';

/** The second sign-in step: a code from the authenticator app raises the session to aal2. */
export function TotpStep({ onVerified }: { onVerified: () => void }) {
  const [factorId, setFactorId] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void (async () => {
      const client = await startAuth();
      const { data, error: listError } = await client.auth.mfa.listFactors();
      if (listError) setError(authErrorMessage(listError));
      else setFactorId(data.totp[0]?.id ?? null);
    })();
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!factorId) return;
    setBusy(true);
    setError(null);
    const client = await startAuth();
    const { error: verifyError } = await client.auth.mfa.challengeAndVerify({
      factorId,
      code: code.trim(),
    });
    setBusy(false);
    if (verifyError) {
      setError(authErrorMessage(verifyError));
      setCode('');
      return;
    }
    onVerified();
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
        {error && <Notice tone="error">{error}</Notice>}
        <Button type="submit" disabled={busy || code.length !== 6 || !factorId}>
          {busy ? 'Verifying…' : 'Verify'}
        </Button>
      </form>
    </Panel>
  );
}
