/**
 * The documentation sidebar's expanded/collapsed state, kept in the `sidebar_state` cookie for
 * seven days and mirrored on <html data-sidebar-state>. The attribute lets CSS show the right
 * width before JavaScript runs: index.html sets it from the cookie with a tiny inline script,
 * so a prerendered page never jumps from expanded to collapsed. The cookie is functional storage:
 * without that consent the state lasts for the page only (decision 0410).
 */
import { consentAllows } from './consent-allows';

export const SIDEBAR_COOKIE_NAME = 'sidebar_state';
export const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7;

const listeners = new Set<() => void>();

/** Reads the open state from a Cookie header value; a missing or unreadable cookie means open. */
export function parseSidebarCookie(cookieHeader: string): boolean {
  for (const part of cookieHeader.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === SIDEBAR_COOKIE_NAME) return value !== 'false';
  }
  return true;
}

/** The state chosen on this page, which holds even when the cookie may not be written. */
let pageOpen: boolean | undefined;

export function readSidebarOpen(): boolean {
  return pageOpen ?? parseSidebarCookie(document.cookie);
}

function applyAttribute(open: boolean): void {
  if (open) document.documentElement.removeAttribute('data-sidebar-state');
  else document.documentElement.setAttribute('data-sidebar-state', 'collapsed');
}

export function writeSidebarOpen(open: boolean): void {
  pageOpen = open;
  if (consentAllows('functional'))
    document.cookie = `${SIDEBAR_COOKIE_NAME}=${open}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE}; samesite=lax`;
  applyAttribute(open);
  for (const listener of listeners) listener();
}

export function subscribeSidebarOpen(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
