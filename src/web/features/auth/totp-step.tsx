import { useState, type FormEvent } from 'react';
import { isAuthError } from '@supabase/supabase-js';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { useTotpFactorId } from './api/get-totp-factor';
import { useVerifyRecoveryCode } from './api/verify-recovery-code';
import { useVerifyTotp } from './api/verify-totp';
import { authErrorMessage } from './auth-errors';
import { useAuth } from './auth-store';
import { Field } from '@/components/ui/field';
import { Panel } from './auth-ui';

/**
 * The second sign-in step: a code from the authenticator app, or one of the recovery codes,
 * raises the session to aal2.
 */
export function TotpStep({
  onVerified,
  framed = true,
}: {
  onVerified: () => void;
  /** In its own card (a page's step), or bare inside a section that already is one. */
  framed?: boolean;
}) {
  const [mode, setMode] = useState<'app' | 'recovery'>('app');
  const Frame = framed ? Panel : 'div';
  return (
    <Frame>
      {mode === 'app' ? (
        <AppCodeForm onVerified={onVerified} />
      ) : (
        <RecoveryCodeForm onVerified={onVerified} />
      )}
      <div className="mt-5 grid gap-3 border-t pt-4 text-sm">
        {mode === 'app' ? (
          <p>
            No access to your authenticator app?{' '}
            <button
              type="button"
              className="font-medium text-primary underline underline-offset-4 hover:no-underline"
              onClick={() => setMode('recovery')}
            >
              Use a recovery code
            </button>
          </p>
        ) : (
          <>
            <p className="text-muted-foreground">
              Lost your authenticator app and your recovery codes? Ask your administrator to remove
              two-factor authentication from your account. Then sign in with your password and set
              it up again.
            </p>
            <p>
              <button
                type="button"
                className="font-medium text-primary underline underline-offset-4 hover:no-underline"
                onClick={() => setMode('app')}
              >
                Use your authenticator app instead
              </button>
            </p>
          </>
        )}
      </div>
    </Frame>
  );
}

function AppCodeForm({ onVerified }: { onVerified: () => void }) {
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
  );
}

function RecoveryCodeForm({ onVerified }: { onVerified: () => void }) {
  const verify = useVerifyRecoveryCode();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const typed = code.replace(/[\s-]/g, '');

  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    verify.mutate(code, {
      onSuccess: onVerified,
      onError: (verifyError) => {
        setError(
          isAuthError(verifyError) && verifyError.code === 'mfa_verification_failed'
            ? 'That recovery code is not right, or it was used already. Each code works once.'
            : authErrorMessage(verifyError),
        );
      },
    });
  }

  return (
    <form className="grid gap-5" onSubmit={submit} noValidate>
      <Field
        label="Recovery code"
        hint="One of the 16-character codes you saved when you turned on two-factor authentication. Each code works once."
        autoComplete="one-time-code"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={24}
        required
        autoFocus
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      {error && <Notice tone="error">{error}</Notice>}
      <Button type="submit" disabled={verify.isPending || typed.length !== 16}>
        {verify.isPending ? 'Verifying…' : 'Use recovery code'}
      </Button>
    </form>
  );
}
