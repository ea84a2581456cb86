import { useState, type FormEvent } from 'react';
import type { Factor, User } from '@supabase/supabase-js';
import { MessageSquare } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import {
  canAdd,
  useEnrolPhone,
  useMfaSwitches,
  useRemoveFactor,
  useTextCode,
  useVerifyPhoneCode,
} from './api/mfa-factors';
import { authErrorMessage, phoneCodeError } from './auth-errors';
import { Panel } from './auth-ui';
import { addedOn, CredentialList } from './credential-list';
import { displayPhone, phoneNumber } from './phone-number';
import { useRecoveryCodesForNewStep } from './recovery-codes';
import { useSecondFactorGate } from './second-factor-gate';

type Status = { kind: 'error' | 'success'; text: string } | null;

const phoneOf = (factor: Factor) => displayPhone((factor as { phone?: string }).phone ?? '');
const reason =
  'Confirm it is you with your second step (authenticator app, security key or text message) to change how you sign in.';

/**
 * Text-message codes as a second step (phone MFA factors, decision 0055): add a number (a code
 * is texted to it and must be entered), see the numbers, remove one. Shown when the service
 * enrols and verifies phone factors, or when the account still has a number to remove.
 */
export function PhoneFactorsSection({ user }: { user: User }) {
  const switches = useMfaSwitches();
  const factors = user.factors ?? [];
  const phones = factors.filter((f) => f.factor_type === 'phone' && f.status === 'verified');
  const addable = canAdd(switches.data?.phone);
  const [number, setNumber] = useState('');
  const [numberError, setNumberError] = useState<string | undefined>();
  const [adding, setAdding] = useState<{
    factorId: string;
    challengeId: string;
    phone: string;
  } | null>(null);
  const [code, setCode] = useState('');
  const [status, setStatus] = useState<Status>(null);
  const enrol = useEnrolPhone();
  const resend = useTextCode();
  const verify = useVerifyPhoneCode();
  const remove = useRemoveFactor();
  const gate = useSecondFactorGate();
  const recoveryCodes = useRecoveryCodesForNewStep();
  const busy =
    enrol.isPending ||
    resend.isPending ||
    verify.isPending ||
    remove.isPending ||
    recoveryCodes.isPending;
  if (!addable && phones.length === 0) return null;

  function start(event: FormEvent) {
    event.preventDefault();
    setStatus(null);
    const parsed = phoneNumber(number);
    if ('problem' in parsed) {
      setNumberError(parsed.problem);
      return;
    }
    setNumberError(undefined);
    const run = () =>
      enrol.mutate(
        { phone: parsed.phone, factors },
        {
          onSuccess: ({ factorId, challengeId }) => {
            setAdding({ factorId, challengeId, phone: parsed.phone });
            setCode('');
          },
          onError: (error) => {
            if (gate.retryAfterCode(error, reason, run)) return;
            if (isValidation(error)) setNumberError(authErrorMessage(error));
            else setStatus({ kind: 'error', text: authErrorMessage(error) });
          },
        },
      );
    gate.guard(reason, run);
  }

  function confirm(event: FormEvent) {
    event.preventDefault();
    if (!adding) return;
    setStatus(null);
    verify.mutate(
      { factorId: adding.factorId, challengeId: adding.challengeId, code },
      {
        onSuccess: () => {
          const on = `Text message codes are on for ${adding.phone}.`;
          setStatus({
            kind: 'success',
            text: `${on} You can use one as your second step when you sign in.`,
          });
          recoveryCodes.issue(factors, (text) =>
            setStatus({ kind: 'error', text: `${on} ${text}` }),
          );
          setAdding(null);
          setNumber('');
          setCode('');
        },
        onError: (error) => {
          setStatus({ kind: 'error', text: phoneCodeError(error) });
          setCode('');
        },
      },
    );
  }

  function textAgain() {
    if (!adding) return;
    setStatus(null);
    resend.mutate(adding.factorId, {
      onSuccess: (challengeId) => {
        setAdding({ ...adding, challengeId });
        setStatus({ kind: 'success', text: `We texted a new code to ${adding.phone}.` });
      },
      onError: (error) => setStatus({ kind: 'error', text: authErrorMessage(error) }),
    });
  }

  function cancel() {
    if (adding) remove.mutate(adding.factorId);
    setAdding(null);
    setCode('');
    setStatus(null);
  }

  function removeOne(factorId: string, phone: string) {
    setStatus(null);
    const run = () =>
      remove.mutate(factorId, {
        onSuccess: () => setStatus({ kind: 'success', text: `${phone} removed.` }),
        onError: (error) => {
          if (!gate.retryAfterCode(error, reason, run)) {
            setStatus({ kind: 'error', text: authErrorMessage(error) });
          }
        },
      });
    gate.guard(reason, run);
  }

  return (
    <Panel aria-labelledby="phone-factors-title">
      <h2 id="phone-factors-title" className="text-lg font-semibold">
        Text message codes
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        Get a code by text message as your second step when you sign in.
      </p>
      {phones.length > 0 ? (
        <CredentialList
          label="Your phone numbers"
          items={phones.map((f) => ({
            id: f.id,
            name: phoneOf(f),
            detail: addedOn(f.created_at),
          }))}
          busy={busy}
          onRemove={(item) => removeOne(item.id, item.name)}
        />
      ) : (
        <p className="mt-4 text-sm">You have no phone numbers for sign-in codes yet.</p>
      )}

      {addable && !adding && !gate.prompt && (
        <form className="mt-4 grid gap-4" onSubmit={start} noValidate>
          <Field
            label="Mobile number"
            type="tel"
            autoComplete="tel"
            inputMode="tel"
            hint="With your country code, for example +44 7700 900123."
            maxLength={24}
            value={number}
            error={numberError}
            onChange={(e) => setNumber(e.target.value)}
          />
          <Button type="submit" className="justify-self-start" disabled={busy || !number.trim()}>
            <MessageSquare aria-hidden="true" />
            {enrol.isPending ? 'Sending…' : 'Text me a code'}
          </Button>
        </form>
      )}

      {adding && (
        <form className="mt-4 grid gap-4" onSubmit={confirm} noValidate>
          <Field
            label="Code from the text message"
            hint={`We texted a code to ${adding.phone}.`}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={10}
            autoFocus
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={busy || code.length < 6}>
              {verify.isPending ? 'Verifying…' : 'Verify number'}
            </Button>
            <Button type="button" variant="outline" disabled={busy} onClick={textAgain}>
              Send a new code
            </Button>
            <Button type="button" variant="ghost" onClick={cancel}>
              Cancel
            </Button>
          </div>
        </form>
      )}

      {status && (
        <div className="mt-4">
          <Notice tone={status.kind}>{status.text}</Notice>
        </div>
      )}
      {gate.prompt && <div className="mt-4">{gate.prompt}</div>}
    </Panel>
  );
}

/** The service's refusal of the number itself (GoTrue's 400 `validation_failed`). */
function isValidation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'validation_failed';
}
