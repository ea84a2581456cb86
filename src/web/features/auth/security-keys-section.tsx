import { useState } from 'react';
import type { User } from '@supabase/supabase-js';
import { KeyRound } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { canAdd, useAddSecurityKey, useMfaSwitches, useRemoveFactor } from './api/mfa-factors';
import { authErrorMessage } from './auth-errors';
import { Panel } from './auth-ui';
import { addedOn, CredentialList } from './credential-list';
import { useRecoveryCodesForNewStep } from './recovery-codes';
import { useSecondFactorGate } from './second-factor-gate';

type Status = { kind: 'error' | 'success'; text: string } | null;

const reason =
  'Confirm it is you with your second step (authenticator app, security key or text message) to change how you sign in.';

/**
 * Security keys as a second step (WebAuthn MFA factors, decision 0055): add one (the browser
 * asks for the key, or this device's fingerprint, face or screen lock), see them, remove one.
 * Unlike a passkey, a security key follows the password; it does not replace it. Shown when the
 * service enrols and verifies WebAuthn factors, or when the account still has a key to remove.
 */
export function SecurityKeysSection({ user }: { user: User }) {
  const switches = useMfaSwitches();
  const factors = user.factors ?? [];
  const keys = factors.filter((f) => f.factor_type === 'webauthn' && f.status === 'verified');
  const addable = canAdd(switches.data?.webauthn);
  const [status, setStatus] = useState<Status>(null);
  const add = useAddSecurityKey();
  const remove = useRemoveFactor();
  const gate = useSecondFactorGate();
  const recoveryCodes = useRecoveryCodesForNewStep();
  const busy = add.isPending || remove.isPending || recoveryCodes.isPending;
  if (!addable && keys.length === 0) return null;

  function addOne() {
    setStatus(null);
    const run = () =>
      add.mutate(factors, {
        onSuccess: () => {
          setStatus({
            kind: 'success',
            text: 'Security key added. You can use it as your second step when you sign in.',
          });
          recoveryCodes.issue(factors, (text) =>
            setStatus({ kind: 'error', text: `Security key added. ${text}` }),
          );
        },
        onError: (error) => {
          if (!gate.retryAfterCode(error, reason, run)) {
            setStatus({ kind: 'error', text: keyErrorMessage(error) });
          }
        },
      });
    gate.guard(reason, run);
  }

  function removeOne(factorId: string, name: string) {
    setStatus(null);
    const run = () =>
      remove.mutate(factorId, {
        onSuccess: () => setStatus({ kind: 'success', text: `${name} removed.` }),
        onError: (error) => {
          if (!gate.retryAfterCode(error, reason, run)) {
            setStatus({ kind: 'error', text: authErrorMessage(error) });
          }
        },
      });
    gate.guard(reason, run);
  }

  return (
    <Panel aria-labelledby="security-keys-title">
      <h2 id="security-keys-title" className="text-lg font-semibold">
        Security keys
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        Use a security key, or this device’s fingerprint, face or screen lock, as your second step
        after your password.
      </p>
      {keys.length > 0 ? (
        <CredentialList
          label="Your security keys"
          items={keys.map((f) => ({
            id: f.id,
            name: f.friendly_name || 'Security key',
            detail: addedOn(f.created_at),
          }))}
          busy={busy}
          onRemove={(item) => removeOne(item.id, item.name)}
        />
      ) : (
        <p className="mt-4 text-sm">You have no security keys yet.</p>
      )}
      {status && (
        <div className="mt-4">
          <Notice tone={status.kind}>{status.text}</Notice>
        </div>
      )}
      {gate.prompt && <div className="mt-4">{gate.prompt}</div>}
      {addable && !gate.prompt && (
        <Button type="button" className="mt-4" disabled={busy} onClick={addOne}>
          <KeyRound aria-hidden="true" />
          {add.isPending ? 'Waiting for your key…' : 'Add a security key'}
        </Button>
      )}
    </Panel>
  );
}

/** The browser's refusal (cancelled, timed out, key already added) or the service's. */
function keyErrorMessage(error: unknown): string {
  const { name, code } = (error ?? {}) as { name?: string; code?: string };
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') {
    return 'This key is already added to your account.';
  }
  if (code === 'ERROR_CEREMONY_ABORTED' || name === 'NotAllowedError') {
    return 'The key was not added: the request was cancelled or timed out. Try again when your key is ready.';
  }
  return authErrorMessage(error);
}
