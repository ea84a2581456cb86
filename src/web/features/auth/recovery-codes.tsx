import { createContext, useContext, useState, type ReactNode } from 'react';
import type { Factor, User } from '@supabase/supabase-js';
import { Copy, Download } from 'lucide-react';
import { brand } from '@common/brand';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { useCreateRecoveryCodes } from './api/create-recovery-codes';
import { useRecoveryCodesStatus } from './api/get-recovery-codes';
import { authErrorMessage } from './auth-errors';
import { Panel } from './auth-ui';
import { useSecondFactorGate } from './second-factor-gate';

/** Second steps that recovery codes stand in for; passkeys replace the password instead. */
const SECOND_STEPS = new Set(['totp', 'webauthn', 'phone']);

/** True when the account has a verified authenticator app, security key or phone number. */
export function hasSecondStep(factors: readonly Factor[]): boolean {
  return factors.some((f) => f.status === 'verified' && SECOND_STEPS.has(f.factor_type));
}

const hasCodes = (factors: readonly Factor[]) =>
  factors.some((f) => (f.factor_type as string) === 'recovery_code');

interface FreshCodes {
  codes: string[] | null;
  setCodes: (codes: string[] | null) => void;
}

const FreshCodesContext = createContext<FreshCodes | null>(null);

/** Holds codes created just now, between the section that verified a step and the panel. */
export function RecoveryCodesProvider({ children }: { children: ReactNode }) {
  const [codes, setCodes] = useState<string[] | null>(null);
  return (
    <FreshCodesContext.Provider value={{ codes, setCodes }}>{children}</FreshCodesContext.Provider>
  );
}

function useFreshCodes(): FreshCodes {
  const fresh = useContext(FreshCodesContext);
  if (!fresh) throw new Error('RecoveryCodesProvider is missing');
  return fresh;
}

/**
 * Called by the authenticator-app, security-key and phone sections once a step is verified:
 * an account that had no recovery codes (its first second step, or one that predates codes for
 * every step) gets its ten now, shown once in the Recovery codes panel. `factors` is the list
 * before the new step; `onError` gets a sentence saying the codes were not created.
 */
export function useRecoveryCodesForNewStep(): {
  issue: (factors: readonly Factor[], onError: (text: string) => void) => void;
  isPending: boolean;
} {
  const create = useCreateRecoveryCodes();
  const fresh = useFreshCodes();
  return {
    isPending: create.isPending,
    issue(factors, onError) {
      if (hasCodes(factors)) return;
      create.mutate(false, {
        onSuccess: fresh.setCodes,
        onError: (error) =>
          onError(
            `The recovery codes could not be created: ${authErrorMessage(error)} Create them under Recovery codes.`,
          ),
      });
    },
  };
}

/** "k4m9x7qp2ab8ht3z" as "k4m9-x7qp-2ab8-ht3z": easier to copy by hand. */
export function formatRecoveryCode(code: string): string {
  return code.match(/.{1,4}/g)?.join('-') ?? code;
}

function codesText(codes: string[]): string {
  return [
    `${brand.product} recovery codes`,
    'Each code signs you in once when you cannot use your authenticator app, security key or phone.',
    '',
    ...codes.map(formatRecoveryCode),
    '',
  ].join('\n');
}

/** The freshly created codes, shown this once, with copy and download. */
function NewCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(codesText(codes));
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }

  function download() {
    const url = URL.createObjectURL(new Blob([codesText(codes)], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `${brand.product.toLowerCase()}-recovery-codes.txt`;
    link.click();
    URL.revokeObjectURL(url);
  }

  return (
    <div className="grid gap-4">
      <h2 id="recovery-codes-title" className="text-lg font-semibold">
        Your recovery codes
      </h2>
      <p className="text-sm">
        Save these codes somewhere safe, away from your phone and your security key: a password
        manager, or printed on paper. Each one signs you in once if you lose your second step (your
        authenticator app, security key or phone). <strong>They are shown only now.</strong>
      </p>
      <ol
        className="grid grid-cols-1 gap-2 rounded-md border bg-muted p-4 font-mono text-sm sm:grid-cols-2"
        data-testid="recovery-codes"
      >
        {codes.map((code) => (
          <li key={code}>{formatRecoveryCode(code)}</li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" onClick={() => void copy()}>
          <Copy aria-hidden="true" />
          Copy codes
        </Button>
        <Button type="button" variant="outline" onClick={download}>
          <Download aria-hidden="true" />
          Download as text
        </Button>
        <Button type="button" onClick={onDone}>
          I have saved them
        </Button>
      </div>
      <p aria-live="polite" className="text-sm">
        {copied === 'yes' && 'Copied to the clipboard.'}
        {copied === 'failed' && 'The browser did not allow copying: download them instead.'}
      </p>
    </div>
  );
}

/**
 * The account's one Recovery codes panel, shown while it has any verified second step
 * (authenticator app, security key or phone) or has just been given codes: how many are left,
 * and a first or new set on request. Codes created with a new step are shown here, once.
 */
export function RecoveryCodesPanel({ user }: { user: User }) {
  const fresh = useFreshCodes();
  if (!fresh.codes && !hasSecondStep(user.factors ?? [])) return null;
  return (
    <Panel aria-labelledby="recovery-codes-title">
      <RecoveryCodesSection
        userId={user.id}
        fresh={fresh.codes}
        onFreshSeen={() => fresh.setCodes(null)}
      />
    </Panel>
  );
}

/** How many codes are left, and a new set on request; `fresh` holds codes created just now. */
function RecoveryCodesSection({
  userId,
  fresh,
  onFreshSeen,
}: {
  userId: string;
  fresh: string[] | null;
  onFreshSeen: () => void;
}) {
  const status = useRecoveryCodesStatus(userId, { enabled: true });
  const create = useCreateRecoveryCodes();
  const gate = useSecondFactorGate();
  const [created, setCreated] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const shown = fresh ?? created;

  function makeNew() {
    setError(null);
    const replace = status.data != null;
    const run = () =>
      create.mutate(replace, {
        onSuccess: setCreated,
        onError: (createError) => {
          if (!gate.retryAfterCode(createError, reason, run)) {
            setError(authErrorMessage(createError));
          }
        },
      });
    const reason =
      'Confirm it is you with your second step (authenticator app, security key or text message) to create new recovery codes.';
    gate.guard(reason, run);
  }

  if (shown) {
    return (
      <NewCodes
        codes={shown}
        onDone={() => {
          setCreated(null);
          onFreshSeen();
        }}
      />
    );
  }
  const left = status.data;
  return (
    <div className="grid gap-3">
      <h2 id="recovery-codes-title" className="text-lg font-semibold">
        Recovery codes
      </h2>
      {status.isPending ? (
        <p className="text-sm" aria-busy="true">
          Loading your recovery codes…
        </p>
      ) : left ? (
        <p className="text-sm">
          {left.remaining} of {left.total} recovery codes left. Creating new codes ends the old
          ones.
        </p>
      ) : (
        <p className="text-sm">
          You have no recovery codes. Create them, so you can still sign in if you lose your
          authenticator app, security key or phone.
        </p>
      )}
      {left && left.remaining <= 3 && (
        <Notice tone="info">
          {left.remaining === 0
            ? 'No recovery codes are left'
            : 'Only a few recovery codes are left'}
          : create new ones.
        </Notice>
      )}
      {status.error && <Notice tone="error">{authErrorMessage(status.error)}</Notice>}
      {error && <Notice tone="error">{error}</Notice>}
      {gate.prompt ?? (
        <Button
          type="button"
          variant="outline"
          className="justify-self-start"
          disabled={create.isPending || status.isPending}
          onClick={makeNew}
        >
          {create.isPending ? 'Creating…' : left ? 'Create new codes' : 'Create recovery codes'}
        </Button>
      )}
    </div>
  );
}
