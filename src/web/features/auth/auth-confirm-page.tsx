import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { startAuth, useAuth } from './auth-store';
import { Notice } from '@/components/ui/notice';
import { AuthShell, Panel, redirectError } from './auth-ui';

/** Where the confirmation mail's link lands: supabase-js reads the session from the address. */
export function AuthConfirmPage() {
  const auth = useAuth();
  const [linkError] = useState(() =>
    typeof window === 'undefined' ? undefined : redirectError(window.location),
  );

  useEffect(() => {
    void startAuth().catch(() => undefined);
  }, []);

  const waiting = auth.status === 'idle' || auth.status === 'loading';
  return (
    <AuthShell title="Confirm your email">
      <Panel className="grid gap-4">
        {linkError ? (
          <>
            <Notice tone="error">This confirmation link cannot be used: {linkError}.</Notice>
            <p className="text-sm">
              Links work once and for one hour.{' '}
              <Link className="text-primary underline" to="/login">
                Sign in
              </Link>{' '}
              to have a new one sent.
            </p>
          </>
        ) : waiting ? (
          <p aria-busy="true">Confirming…</p>
        ) : auth.status === 'signed-in' ? (
          <>
            <Notice tone="success">Your email address is confirmed and you are signed in.</Notice>
            <Button asChild className="justify-self-start">
              <Link to="/account">Go to your account</Link>
            </Button>
          </>
        ) : (
          <p>
            Open the link in the confirmation email we sent you. Already confirmed?{' '}
            <Link className="text-primary underline" to="/login">
              Sign in
            </Link>
            .
          </p>
        )}
      </Panel>
    </AuthShell>
  );
}
