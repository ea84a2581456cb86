import type { Page } from 'playwright-core';

/**
 * Gives the page's browser a CDP virtual authenticator that answers WebAuthn ceremonies at once
 * with a verified user: `internal` for a platform passkey, `usb` for a roaming security key.
 */
export async function withVirtualAuthenticator(
  page: Page,
  transport: 'internal' | 'usb',
): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport,
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}
