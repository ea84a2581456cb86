/**
 * "Sign in with SSO" (decision 0183): the learner's university email address or their
 * organization's domain names the organization; the auth service finds the SAML provider that
 * claims the domain (`signInWithSSO({ domain })`) and the browser goes to the identity provider.
 * The provider posts back to the auth service, which sends the browser to the sign-in page with
 * the session in the address (`/login?sso=1`), where supabase-js picks it up.
 */
import { useMutation } from '@tanstack/react-query';
import { startAuth } from '../auth-store';

/** A DNS name as organizations register them: labels of letters, digits and hyphens. */
const domainPattern = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export type SsoDomain = { domain: string } | { problem: string };

/** The domain an email address or a typed domain names, or what is wrong with the input. */
export function ssoDomain(input: string): SsoDomain {
  const text = input.trim().toLowerCase();
  if (!text) return { problem: 'Enter your university email address or its domain.' };
  const at = text.lastIndexOf('@');
  const domain = (at >= 0 ? text.slice(at + 1) : text)
    .replace(/^https?:\/\//, '')
    .replace(/^www\./, '')
    .replace(/[/?#].*$/, '')
    .replace(/\.$/, '');
  if (!domainPattern.test(domain))
    return {
      problem: `“${input.trim()}” is not an email address or a domain. Enter one like name@university.edu or university.edu.`,
    };
  return { domain };
}

/** Where the auth service sends the browser back: the sign-in page, which then goes on to `next`. */
export function ssoReturnUrl(origin: string, next: string): string {
  return `${origin}/login?${new URLSearchParams({ sso: '1', next }).toString()}`;
}

const PENDING_KEY = 'lyceum-sso-pending';

/**
 * Whether this tab went to an identity provider from here and has not come back yet. The
 * session the provider's answer carries is read from the address by supabase-js as soon as the
 * client loads, often before the sign-in page's code runs, so the page asks this instead.
 */
export function ssoPending(): boolean {
  try {
    return sessionStorage.getItem(PENDING_KEY) !== null;
  } catch {
    return false;
  }
}

export function endSsoPending(): void {
  try {
    sessionStorage.removeItem(PENDING_KEY);
  } catch {
    // Storage blocked: nothing was marked.
  }
}

/** Asks the auth service for the identity provider's address and goes there. */
export async function signInWithSso({ domain, next }: { domain: string; next: string }) {
  const client = await startAuth();
  const { data, error } = await client.auth.signInWithSSO({
    domain,
    options: { redirectTo: ssoReturnUrl(window.location.origin, next), skipBrowserRedirect: true },
  });
  if (error) throw error;
  try {
    sessionStorage.setItem(PENDING_KEY, domain);
  } catch {
    // Storage blocked: coming back, the page still finds the session in its address.
  }
  window.location.assign(data.url);
}

export function useSignInWithSso() {
  return useMutation({ mutationFn: signInWithSso });
}
