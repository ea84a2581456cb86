/**
 * This browser's consent choice, read side (decision 0410): kept in localStorage under
 * `lyceum.consent` so a visitor's choice needs no account, for the banner, the settings and
 * the app's sync. Code that stores something optional asks `consentAllows` (./consent-allows.ts)
 * first; saving and clearing live in ./consent.ts.
 */
import { useSyncExternalStore } from 'react';
import {
  consentPolicyVersion,
  optionalConsentCategories,
  type ConsentChoices,
} from '@common/consent';
import { CONSENT_OPEN_EVENT, CONSENT_STORAGE_KEY } from './consent-allows';

export { CONSENT_STORAGE_KEY } from './consent-allows';

export interface ConsentRecord {
  policyVersion: string;
  /** ISO time of the decision (the server's, once it has recorded it). */
  decidedAt: string;
  choices: ConsentChoices;
}

/** Who made a change: the person on this page, or the server's record being adopted. */
export type ConsentOrigin = 'visitor' | 'server';

type Listener = (record: ConsentRecord | null, origin: ConsentOrigin) => void;
const listeners = new Set<Listener>();
let cached: { raw: string | null; record: ConsentRecord | null } | undefined;
/** Where the choice lives when the browser blocks storage: this page only. */
export const memory: { record: ConsentRecord | null } = { record: null };

export function consentStorage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

export function parseConsent(raw: string | null): ConsentRecord | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<ConsentRecord>;
    if (value.policyVersion !== consentPolicyVersion || typeof value.decidedAt !== 'string')
      return null;
    const choices = value.choices as Partial<ConsentChoices> | undefined;
    if (!choices) return null;
    const out = {} as ConsentChoices;
    for (const category of optionalConsentCategories) {
      if (typeof choices[category] !== 'boolean') return null;
      out[category] = choices[category];
    }
    return { policyVersion: value.policyVersion, decidedAt: value.decidedAt, choices: out };
  } catch {
    return null;
  }
}

/** The stored choice for the current policy version, or null (the banner then asks). */
export function readConsent(): ConsentRecord | null {
  const store = consentStorage();
  if (!store) return memory.record;
  let raw: string | null;
  try {
    raw = store.getItem(CONSENT_STORAGE_KEY);
  } catch {
    return memory.record;
  }
  if (raw === null && memory.record) return memory.record;
  if (cached && cached.raw === raw) return cached.record;
  cached = { raw, record: parseConsent(raw) };
  return cached.record;
}

export function subscribeConsent(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function notifyConsent(record: ConsentRecord | null, origin: ConsentOrigin): void {
  for (const listener of listeners) listener(record, origin);
}

/** The footer's "Privacy choices" (openConsentChoices in ./consent-allows.ts). */
export function subscribeOpenRequests(listener: () => void): () => void {
  window.addEventListener(CONSENT_OPEN_EVENT, listener);
  return () => window.removeEventListener(CONSENT_OPEN_EVENT, listener);
}

function subscribeForReact(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === CONSENT_STORAGE_KEY) onChange();
  };
  window.addEventListener('storage', onStorage);
  const unsubscribe = subscribeConsent(onChange);
  return () => {
    window.removeEventListener('storage', onStorage);
    unsubscribe();
  };
}

/** The current choice; null before one is made (and while prerendering). */
export function useConsent(): ConsentRecord | null {
  return useSyncExternalStore(subscribeForReact, readConsent, () => null);
}
