/**
 * Consent categories and the version of their text (decision 0410). What each category covers
 * is in ./consent-text.ts; this module stays tiny because the public pages' first load
 * carries it.
 */

export const consentCategories = ['essential', 'analytics', 'marketing', 'functional'] as const;
export type ConsentCategory = (typeof consentCategories)[number];
/** Every category but essential, which is always on. */
export const optionalConsentCategories = ['analytics', 'marketing', 'functional'] as const;
export type OptionalConsentCategory = (typeof optionalConsentCategories)[number];
export type ConsentChoices = Record<OptionalConsentCategory, boolean>;

/**
 * The version of the consent text below. Changing what a category covers means a new
 * version: everyone is asked again, and the server records which version each choice was for.
 */
export const consentPolicyVersion = '2026-11-23';

/** Nothing optional allowed: the state before a choice, and what "Reject" stores. */
export const rejectAllChoices: ConsentChoices = {
  analytics: false,
  marketing: false,
  functional: false,
};
export const acceptAllChoices: ConsentChoices = {
  analytics: true,
  marketing: true,
  functional: true,
};
