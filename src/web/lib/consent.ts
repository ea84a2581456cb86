/**
 * Saving this browser's consent choice (decision 0410; the read side is ./consent-state.ts).
 * A refusal or withdrawal removes what the category's entries in src/common/consent.ts name,
 * so nothing of it is left behind. Loaded with the banner and the privacy settings.
 */
import {
  consentPolicyVersion,
  optionalConsentCategories,
  type ConsentChoices,
  type OptionalConsentCategory,
} from '@common/consent';
import { consentCategoryInfo } from '@common/consent-text';
import {
  CONSENT_STORAGE_KEY,
  consentStorage,
  memory,
  notifyConsent,
  type ConsentOrigin,
  type ConsentRecord,
} from './consent-state';

/** Stores a decision, removes what refused categories left behind and tells the listeners. */
export function saveConsent(
  choices: ConsentChoices,
  origin: ConsentOrigin,
  decidedAt: string = new Date().toISOString(),
): ConsentRecord {
  const record: ConsentRecord = {
    policyVersion: consentPolicyVersion,
    decidedAt,
    choices: { ...choices },
  };
  memory.record = record;
  try {
    consentStorage()?.setItem(CONSENT_STORAGE_KEY, JSON.stringify(record));
  } catch {
    // Storage blocked or full: the choice holds for this page (consent-state's memory).
  }
  for (const category of optionalConsentCategories) {
    if (!record.choices[category]) clearConsentCategory(category);
  }
  notifyConsent(record, origin);
  return record;
}

function matches(pattern: string, name: string): boolean {
  return pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern;
}

/** Every domain a cookie for this page may have been set on: the host and its parents. */
function cookieDomains(hostname: string): string[] {
  const parts = hostname.split('.');
  const domains = [''];
  for (let i = 0; i < parts.length - 1; i += 1) {
    const domain = parts.slice(i).join('.');
    domains.push(`; domain=${domain}`, `; domain=.${domain}`);
  }
  return domains;
}

/**
 * Removes the category's cookies (ours and well-known third-party names, on every path and
 * parent domain a script could have used) and its localStorage/sessionStorage keys.
 */
export function clearConsentCategory(category: OptionalConsentCategory): void {
  if (typeof document === 'undefined') return;
  const info = consentCategoryInfo[category];
  const cookiePatterns = [
    ...info.items.filter((i) => i.kind === 'cookie').map((i) => i.name),
    ...info.knownThirdParty,
  ];
  const present = document.cookie
    .split(';')
    .map((part) => part.trim().split('=')[0] ?? '')
    .filter((name) => name && cookiePatterns.some((p) => matches(p, name)));
  const paths = ['/', window.location.pathname];
  for (const name of present) {
    for (const domain of cookieDomains(window.location.hostname)) {
      for (const path of paths) {
        document.cookie = `${name}=; max-age=0; path=${path}${domain}`;
      }
    }
  }
  for (const kind of ['localStorage', 'sessionStorage'] as const) {
    const patterns = info.items.filter((i) => i.kind === kind).map((i) => i.name);
    if (patterns.length === 0) continue;
    try {
      const store = window[kind];
      const keys: string[] = [];
      for (let i = 0; i < store.length; i += 1) {
        const key = store.key(i);
        if (key && patterns.some((p) => matches(p, key))) keys.push(key);
      }
      for (const key of keys) store.removeItem(key);
    } catch {
      // Blocked storage holds nothing to clear.
    }
  }
}
