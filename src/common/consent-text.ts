/**
 * What each consent category covers in this product, read by the consent banner and the
 * privacy settings. The lists are what Lyceum's own code stores in the browser today; a feature
 * that adds a cookie or a storage key adds it here under its category, and the web app's
 * consent store (src/web/lib/consent.ts) clears it when the category is refused or withdrawn.
 * Changing what a category covers means a new `consentPolicyVersion`.
 */
import type { ConsentCategory } from './consent';

export interface StoredItem {
  /** A cookie name, or a storage key; a trailing `*` matches every name with that prefix. */
  name: string;
  kind: 'cookie' | 'localStorage' | 'sessionStorage';
  purpose: string;
  lifetime: string;
}

export interface ConsentCategoryInfo {
  label: string;
  summary: string;
  /** What Lyceum stores in this category today (empty: nothing). */
  items: readonly StoredItem[];
  /**
   * Names well-known third-party tools of this kind use. Lyceum sets none of them, but a
   * withdrawal removes any found on this site (e.g. left by a script an operator added).
   */
  knownThirdParty: readonly string[];
}

export const consentCategoryInfo: Record<ConsentCategory, ConsentCategoryInfo> = {
  essential: {
    label: 'Essential',
    summary:
      'Keeps you signed in, applies the accessibility settings you chose, keeps the investor data room open for this browser session and remembers this choice. Always on: the product cannot work without them.',
    items: [
      {
        name: 'sb-*',
        kind: 'localStorage',
        purpose: 'Your sign-in session',
        lifetime: 'until you sign out',
      },
      {
        name: 'lyceum-a11y',
        kind: 'localStorage',
        purpose:
          'Your accessibility settings (text size, contrast, motion…), applied before the page draws',
        lifetime: 'until you change them',
      },
      {
        name: 'lyceum.data-room.grant',
        kind: 'sessionStorage',
        purpose: 'Access to the investor data room after the PIN',
        lifetime: 'this browser session',
      },
      {
        name: 'lyceum.consent',
        kind: 'localStorage',
        purpose: 'Your choices on this banner',
        lifetime: 'until you change them',
      },
    ],
    knownThirdParty: [],
  },
  functional: {
    label: 'Functional',
    summary:
      'Remembers your layout between visits: whether the documentation sidebar is collapsed and which organization you last worked in. Without it, each visit starts with the defaults.',
    items: [
      {
        name: 'sidebar_state',
        kind: 'cookie',
        purpose: 'Documentation sidebar expanded or collapsed',
        lifetime: '7 days',
      },
      {
        name: 'lyceum.workspace.*',
        kind: 'localStorage',
        purpose: 'The organization or Personal mode you last chose',
        lifetime: 'until you withdraw this consent',
      },
    ],
    knownThirdParty: [],
  },
  analytics: {
    label: 'Analytics',
    summary:
      'None in use: Lyceum loads no analytics script and sets no analytics cookie. The home page shows the hosting provider’s own figures, counted on its servers. If measurement is ever added, it will run only for people who allow this.',
    items: [],
    knownThirdParty: ['_ga', '_ga_*', '_gid', '_gat*', '_pk_*', 'ajs_*', 'mp_*', '_hj*'],
  },
  marketing: {
    label: 'Marketing',
    summary:
      'None in use: Lyceum shows no advertising and sets no marketing or tracking cookie. If that ever changes, it will run only for people who allow this.',
    items: [],
    knownThirdParty: ['_fbp', '_fbc', '_gcl_*', '_uet*', 'IDE', 'li_*', '_ttp'],
  },
};
