import { useState, type FormEvent } from 'react';
import type { User } from '@supabase/supabase-js';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { useEnrolTotp, type TotpEnrolment } from './api/enrol-totp';
import { useUnenrolTotp } from './api/unenrol-totp';
import { useVerifyTotp } from './api/verify-totp';
import { authErrorMessage } from './auth-errors';
import { useAuth } from './auth-store';
import { accessTokenClaims } from './session-claims';
import { Field } from '@/components/ui/field';
import { Panel } from './auth-ui';
import { useRecoveryCodesForNewStep } from './recovery-codes';
import { TotpStep } from './totp-step';

/** The two-factor switch: enrol a TOTP authenticator with its QR code, or remove it. */
export function TwoFactorSection({ user }: { user: User }) {
  const auth = useAuth();
  const factors = user.factors ?? [];
  // Recovery codes are a factor too, but they go with the last second step on the server.
  const verified = factors.filter((f) => f.status === 'verified' && f.factor_type === 'totp');
  const enabled = verified.length > 0;
  // Security keys and text-message numbers stay a second step when the app goes.
  const otherSteps = factors.some(
    (f) => f.status === 'verified' && (f.factor_type === 'webauthn' || f.factor_type === 'phone'),
  );
  const recoveryCodes = useRecoveryCodesForNewStep();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [code, setCode] = useState('');
  const [status, setStatus] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [confirmingDisable, setConfirmingDisable] = useState(false);
  const enrol = useEnrolTotp();
  const verify = useVerifyTotp();
  const unenrol = useUnenrolTotp();
  const busy = enrol.isPending || verify.isPending || unenrol.isPending || recoveryCodes.isPending;
  const aal = auth.session ? (accessTokenClaims(auth.session.access_token).aal ?? 'aal1') : 'aal1';

  function begin() {
    setStatus(null);
    enrol.mutate(factors, {
      onSuccess: setEnrolment,
      onError: (error) => setStatus({ kind: 'error', text: authErrorMessage(error) }),
    });
  }

  function confirm(event: FormEvent) {
    event.preventDefault();
    if (!enrolment) return;
    setStatus(null);
    verify.mutate(
      { factorId: enrolment.factorId, code },
      {
        onSuccess: () => {
          setEnrolment(null);
          setCode('');
          setStatus({
            kind: 'success',
            text: 'Two-factor authentication is on. You will be asked for a code when you sign in.',
          });
          // The first second step comes with recovery codes, shown once in their panel.
          recoveryCodes.issue(factors, (text) =>
            setStatus({ kind: 'error', text: `Two-factor authentication is on. ${text}` }),
          );
        },
        onError: (error) => {
          setStatus({ kind: 'error', text: authErrorMessage(error) });
          setCode('');
        },
      },
    );
  }

  function disable() {
    setStatus(null);
    unenrol.mutate(verified, {
      onSuccess: () => {
        setConfirmingDisable(false);
        setStatus({ kind: 'success', text: 'Two-factor authentication is off.' });
      },
      onError: (error) => setStatus({ kind: 'error', text: authErrorMessage(error) }),
    });
  }

  function toggle() {
    if (enabled) setConfirmingDisable(true);
    else begin();
  }

  return (
    <Panel aria-labelledby="mfa-title">
      <div className="flex items-start justify-between gap-4">
        <div>
          <h2 id="mfa-title" className="text-lg font-semibold">
            Two-factor authentication
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">
            Ask for a code from an authenticator app when you sign in.
          </p>
        </div>
        <button
          type="button"
          role="switch"
          aria-checked={enabled}
          aria-labelledby="mfa-title"
          disabled={busy || enrolment !== null}
          onClick={toggle}
          className="relative inline-flex h-6 w-11 shrink-0 items-center rounded-full border-2 border-transparent bg-input transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:opacity-50 aria-checked:bg-primary"
        >
          <span
            aria-hidden="true"
            className={`block size-5 rounded-full bg-background shadow transition-transform ${enabled ? 'translate-x-5' : 'translate-x-0'}`}
          />
        </button>
      </div>

      {enrolment && (
        <form className="mt-5 grid gap-4" onSubmit={confirm} noValidate>
          <p className="text-sm">
            Scan this QR code with an authenticator app (such as 1Password, Google Authenticator or
            Authy), then enter the 6-digit code it shows.
          </p>
          <img
            src={enrolment.qrCode}
            alt="QR code for your authenticator app"
            width={176}
            height={176}
            className="rounded-md border bg-white p-2"
          />
          <p className="text-sm">
            Cannot scan? Enter this key instead:{' '}
            <code
              className="rounded bg-muted px-1.5 py-0.5 font-mono break-all"
              data-testid="totp-secret"
            >
              {enrolment.secret}
            </code>
          </p>
          <Field
            label="Code from the app"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={busy || code.length !== 6}>
              {busy ? 'Verifying…' : 'Turn on'}
            </Button>
            <Button type="button" variant="ghost" onClick={() => setEnrolment(null)}>
              Cancel
            </Button>
          </div>
        </form>
      )}

      {confirmingDisable &&
        (aal === 'aal2' ? (
          <div className="mt-5 grid gap-3">
            <p className="text-sm">
              {otherSteps
                ? 'Remove your authenticator app? Signing in will ask for your security key or a text message code instead.'
                : 'Turn off two-factor authentication? Signing in will need only your password, and your recovery codes stop working.'}
            </p>
            <div className="flex flex-wrap gap-2">
              <Button type="button" variant="destructive" disabled={busy} onClick={disable}>
                Turn off
              </Button>
              <Button type="button" variant="ghost" onClick={() => setConfirmingDisable(false)}>
                Keep it on
              </Button>
            </div>
          </div>
        ) : (
          <div className="mt-5 grid gap-3">
            <p className="text-sm">
              Enter a code from your authenticator app to confirm it is you.
            </p>
            <TotpStep framed={false} onVerified={() => undefined} />
          </div>
        ))}

      {status && (
        <div className="mt-4">
          <Notice tone={status.kind}>{status.text}</Notice>
        </div>
      )}
    </Panel>
  );
}
