/**
 * The smallest part of the consent store (decision 0410), which the public pages' first load
 * carries: whether a category is allowed, and the footer's request to show the choices. The
 * rest (./consent-state.ts, ./consent.ts) loads with the banner or the app.
 */
import { consentPolicyVersion, type ConsentCategory } from '@common/consent';

export const CONSENT_STORAGE_KEY = 'lyceum.consent';
/** Dispatched on window to open the banner with the categories shown. */
export const CONSENT_OPEN_EVENT = 'lyceum:consent-open';

/** Essential is always allowed; anything else only after the person said yes to it. */
export function consentAllows(category: ConsentCategory): boolean {
  if (category === 'essential') return true;
  try {
    const stored = JSON.parse(localStorage.getItem(CONSENT_STORAGE_KEY) ?? 'null') as {
      policyVersion?: string;
      choices?: Record<string, unknown>;
    } | null;
    return stored?.policyVersion === consentPolicyVersion && stored.choices?.[category] === true;
  } catch {
    // Blocked storage or a damaged value: nothing optional is allowed.
    return false;
  }
}

/** Asks the banner to open with the choices shown (the footer's "Privacy choices"). */
export function openConsentChoices(): void {
  window.dispatchEvent(new Event(CONSENT_OPEN_EVENT));
}
