import { useEffect } from 'react';
import { Link } from 'react-router';
import { CircleUserRound, LogIn } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { hasStoredSession, startAuth, useAuth } from './auth-store';

const authPaths = new Set([
  '/login',
  '/signup',
  '/forgot-password',
  '/reset-password',
  '/auth/confirm',
  '/account',
]);

/**
 * The header's account entry: "Sign in", or "Account" once signed in. The auth client is
 * loaded only when this browser has a stored session or an account screen is open, so other
 * pages do not carry it.
 */
export function AccountEntry({ pathname }: { pathname: string }) {
  const { status } = useAuth();
  useEffect(() => {
    if (authPaths.has(pathname) || hasStoredSession()) void startAuth().catch(() => undefined);
  }, [pathname]);

  if (status === 'signed-in') {
    return (
      <Button asChild size="sm" variant={pathname === '/account' ? 'default' : 'ghost'}>
        <Link to="/account" aria-current={pathname === '/account' ? 'page' : undefined}>
          <CircleUserRound aria-hidden="true" />
          <span className="max-sm:sr-only">Account</span>
        </Link>
      </Button>
    );
  }
  return (
    <Button asChild size="sm" variant={pathname === '/login' ? 'default' : 'ghost'}>
      <Link to="/login" aria-current={pathname === '/login' ? 'page' : undefined}>
        <LogIn aria-hidden="true" />
        <span className="max-sm:sr-only">Sign in</span>
      </Link>
    </Button>
  );
}
