import { useState, type FormEvent } from 'react';
import { isAuthError } from '@supabase/supabase-js';
import { KeyRound, MessageSquare } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { useTotpFactorId } from './api/get-totp-factor';
import {
  useMfaSwitches,
  useSignInFactors,
  useTextCode,
  useVerifyPhoneCode,
  useVerifyWithSecurityKey,
  type SignInFactors,
} from './api/mfa-factors';
import { useVerifyRecoveryCode } from './api/verify-recovery-code';
import { useVerifyTotp } from './api/verify-totp';
import { authErrorMessage, phoneCodeError } from './auth-errors';
import { useAuth } from './auth-store';
import { Field } from '@/components/ui/field';
import { Panel } from './auth-ui';
import { phoneEnding } from './phone-number';

type Method = 'app' | 'key' | 'phone' | 'recovery';

const switchLabel: Record<Method, string> = {
  app: 'Use your authenticator app instead',
  key: 'Use your security key instead',
  phone: 'Get a code by text message instead',
  recovery: 'Use a recovery code',
};

/**
 * The second sign-in step: a code from the authenticator app, a security key, a code texted to
 * the user's phone, or one of the recovery codes raises the session to aal2. It starts with the
 * app when the account has one, then a security key, then a text message; the others are a
 * click away. Phone and security-key factors are offered only while the service verifies them.
 */
export function TotpStep({
  onVerified,
  framed = true,
}: {
  onVerified: () => void;
  /** In its own card (a page's step), or bare inside a section that already is one. */
  framed?: boolean;
}) {
  const userId = useAuth().session?.user.id ?? '';
  const factors = useSignInFactors(userId);
  const switches = useMfaSwitches();
  const [chosen, setChosen] = useState<Method | null>(null);
  const Frame = framed ? Panel : 'div';
  if (factors.isPending || switches.isPending) {
    return (
      <Frame>
        <p className="text-sm" aria-busy="true">
          Loading your sign-in options…
        </p>
      </Frame>
    );
  }
  const found = factors.data;
  const methods: Method[] = [];
  // Without the list (a failed read), the app's form shows the reason, as before.
  if (!found || found.totp) methods.push('app');
  if (found && found.webauthn.length > 0 && switches.data?.webauthn.verify) methods.push('key');
  if (found && found.phone.length > 0 && switches.data?.phone.verify) methods.push('phone');
  const hasRecovery = !found || !!found.totp || found.recoveryCodes;
  if (found && methods.length === 0) {
    // Every factor the account has is of a type the service no longer verifies: GoTrue's lock
    // too (decision 0061). Recovery codes still work; otherwise only an administrator helps.
    if (!hasRecovery) return <Stranded factors={found} framed={framed} />;
    methods.push('recovery');
  }
  if (methods.length === 0) methods.push('app');
  const mode: Method = chosen ?? methods[0]!;
  const others = [...methods, ...(hasRecovery ? (['recovery'] as const) : [])].filter(
    (m) => m !== mode,
  );
  const switchTo = (method: Method) => (
    <button
      key={method}
      type="button"
      className="font-medium text-primary underline underline-offset-4 hover:no-underline"
      onClick={() => setChosen(method)}
    >
      {switchLabel[method]}
    </button>
  );
  return (
    <Frame>
      {mode === 'app' && <AppCodeForm onVerified={onVerified} />}
      {mode === 'key' && found && <SecurityKeyForm keys={found.webauthn} onVerified={onVerified} />}
      {mode === 'phone' && found && <PhoneCodeForm phones={found.phone} onVerified={onVerified} />}
      {mode === 'recovery' && <RecoveryCodeForm onVerified={onVerified} />}
      <div className="mt-5 grid gap-3 border-t pt-4 text-sm">
        {mode === 'app' && others.length === 1 && others[0] === 'recovery' ? (
          <p>No access to your authenticator app? {switchTo('recovery')}</p>
        ) : (
          <>
            {mode === 'recovery' && (
              <p className="text-muted-foreground">
                Lost your second step and your recovery codes? Ask your administrator to remove
                two-factor authentication from your account. Then sign in with your password and set
                it up again.
              </p>
            )}
            {others.map((method) => (
              <p key={method}>{switchTo(method)}</p>
            ))}
          </>
        )}
      </div>
    </Frame>
  );
}

/** The second step an account has but the service has switched off, and the way back. */
function Stranded({ factors, framed }: { factors: SignInFactors; framed: boolean }) {
  const Frame = framed ? Panel : 'div';
  const kinds = [
    ...(factors.phone.length > 0 ? ['codes by text message'] : []),
    ...(factors.webauthn.length > 0 ? ['security keys'] : []),
  ];
  return (
    <Frame>
      <Notice tone="error">
        Your second step is {kinds.join(' or ') || 'a method'} this service has switched off, so it
        cannot confirm it is you now. Ask your administrator to remove two-factor authentication
        from your account. Then sign in with your password and set it up again.
      </Notice>
    </Frame>
  );
}

function SecurityKeyForm({
  keys,
  onVerified,
}: {
  keys: SignInFactors['webauthn'];
  onVerified: () => void;
}) {
  const verify = useVerifyWithSecurityKey();
  const [error, setError] = useState<string | null>(null);

  function tryKey(factorId: string) {
    setError(null);
    verify.mutate(factorId, {
      onSuccess: onVerified,
      onError: (keyError) => setError(authErrorMessage(keyError)),
    });
  }

  return (
    <div className="grid gap-4">
      <p className="text-sm">
        Use your security key, or this device’s fingerprint, face or screen lock if you added it as
        a key.
      </p>
      {error && <Notice tone="error">{error}</Notice>}
      {keys.map((key) => (
        <Button
          key={key.id}
          type="button"
          disabled={verify.isPending}
          onClick={() => tryKey(key.id)}
        >
          <KeyRound aria-hidden="true" />
          {verify.isPending
            ? 'Waiting for your key…'
            : keys.length === 1
              ? 'Use your security key'
              : `Use ${key.name}`}
        </Button>
      ))}
    </div>
  );
}

function PhoneCodeForm({
  phones,
  onVerified,
}: {
  phones: SignInFactors['phone'];
  onVerified: () => void;
}) {
  const send = useTextCode();
  const verify = useVerifyPhoneCode();
  const [sent, setSent] = useState<{
    factorId: string;
    challengeId: string;
    ending: string;
  } | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  function text(factorId: string, ending: string) {
    setError(null);
    send.mutate(factorId, {
      onSuccess: (challengeId) => {
        setSent({ factorId, challengeId, ending });
        setCode('');
      },
      onError: (sendError) => setError(authErrorMessage(sendError)),
    });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!sent) return;
    setError(null);
    verify.mutate(
      { factorId: sent.factorId, challengeId: sent.challengeId, code },
      {
        onSuccess: onVerified,
        onError: (verifyError) => {
          setError(phoneCodeError(verifyError));
          setCode('');
        },
      },
    );
  }

  return (
    <div className="grid gap-4">
      {!sent && <p className="text-sm">We will text a code to your phone.</p>}
      {error && <Notice tone="error">{error}</Notice>}
      {sent && (
        <form className="grid gap-5" onSubmit={submit} noValidate>
          <Field
            label="Code from the text message"
            hint={`We texted a code to your number ending in ${sent.ending}.`}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={10}
            required
            autoFocus
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
          />
          <Button type="submit" disabled={verify.isPending || code.length < 6}>
            {verify.isPending ? 'Verifying…' : 'Verify'}
          </Button>
        </form>
      )}
      {phones.map((p) => {
        const ending = phoneEnding(p.phone);
        return (
          <Button
            key={p.id}
            type="button"
            variant={sent ? 'outline' : 'default'}
            disabled={send.isPending}
            onClick={() => text(p.id, ending)}
          >
            <MessageSquare aria-hidden="true" />
            {sent?.factorId === p.id
              ? 'Send a new code'
              : `Text a code to the number ending in ${ending}`}
          </Button>
        );
      })}
    </div>
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
