import { useState, type ReactNode } from 'react';
import { isAuthError } from '@supabase/supabase-js';
import { Button } from '@/components/ui/button';
import { useAuth } from './auth-store';
import { awaitingSecondFactor } from './session-claims';
import { TotpStep } from './totp-step';

interface Pending {
  reason: string;
  run: () => void;
}

/**
 * Actions the service allows only after the second factor (aal2) when two-factor is on:
 * changing the password or email, signing out other sessions. `guard` runs the action at once,
 * or first asks for a code and runs it once the code is verified; `retryAfterCode` does the
 * same for an action the service refused with `insufficient_aal`.
 */
export function useSecondFactorGate(): {
  guard: (reason: string, run: () => void) => void;
  retryAfterCode: (error: unknown, reason: string, run: () => void) => boolean;
  prompt: ReactNode;
} {
  const auth = useAuth();
  const [pending, setPending] = useState<Pending | null>(null);

  function guard(reason: string, run: () => void) {
    if (auth.session && awaitingSecondFactor(auth.session)) setPending({ reason, run });
    else run();
  }

  function retryAfterCode(error: unknown, reason: string, run: () => void) {
    if (!isAuthError(error) || error.code !== 'insufficient_aal') return false;
    setPending({ reason, run });
    return true;
  }

  const prompt = pending && (
    <div className="grid gap-3" role="group" aria-label="Confirm with two-factor authentication">
      <p className="text-sm">{pending.reason}</p>
      <TotpStep
        framed={false}
        onVerified={() => {
          const { run } = pending;
          setPending(null);
          run();
        }}
      />
      <Button
        type="button"
        variant="ghost"
        className="justify-self-start"
        onClick={() => setPending(null)}
      >
        Cancel
      </Button>
    </div>
  );
  return { guard, retryAfterCode, prompt };
}
