/**
 * Headless Chromium from the system (Debian's `chromium` package) driven by playwright-core.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { consentPolicyVersion } from '../../src/common/consent';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Installs Debian's chromium when missing and we can (root with apt); otherwise explains how. */
export function ensureChromium(): void {
  if (fs.existsSync(CHROMIUM_PATH)) return;
  const canApt = process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get');
  if (canApt) {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  }
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Browser tests need Chromium at ${CHROMIUM_PATH}. Install it with \`sudo apt-get install chromium\` (Debian/Ubuntu) and run the tests again.`,
    );
  }
}

/** Headless Chromium flags for this sandbox; bench/lighthouse.ts launches Chromium with them too. */
export const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * A consent choice every page of a context starts with, unless the test asks for a first
 * visit: the consent banner (decision 0410) would otherwise cover the foot of every page a
 * test opens. "Accept all" keeps what the browser stores as it was before the banner existed.
 */
export const acceptedConsentScript = `try {
  if (!localStorage.getItem('lyceum.consent'))
    localStorage.setItem('lyceum.consent', JSON.stringify({ policyVersion: '${consentPolicyVersion}', decidedAt: new Date().toISOString(), choices: { analytics: true, marketing: true, functional: true } }));
} catch {}`;

/**
 * `firstVisit`: contexts start with no consent choice, so the banner shows (the consent
 * tests); otherwise each new context has made one. Service workers are blocked unless a
 * context asks for them (`serviceWorkers: 'allow'`, the installed-app tests): once the worker
 * controls a page it answers navigations and assets itself, which would change what every other
 * test observes about the server's answers and its routed requests.
 */
export async function launchBrowser(options: { firstVisit?: boolean } = {}): Promise<Browser> {
  ensureChromium();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: chromiumFlags });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (contextOptions = {}) => {
    const context = await newContext({ serviceWorkers: 'block', ...contextOptions });
    if (!options.firstVisit) await context.addInitScript(acceptedConsentScript);
    return context;
  };
  return browser;
}

export const viewports = {
  mobile: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;

/** axe violations of impact serious or critical, formatted for an assertion message. */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
}

/**
 * Scrolls the window to `top` and resolves once the page's scroll listeners have run and two
 * frames have been painted, so whatever they render (or do not render) can be asserted.
 */
export async function scrollAndSettle(page: Page, top: number): Promise<void> {
  await page.evaluate(
    (y) =>
      new Promise<void>((resolve) => {
        if (Math.round(window.scrollY) === y) return resolve();
        const painted = () => requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
        window.addEventListener('scroll', painted, { once: true });
        window.scrollTo(0, y);
      }),
    top,
  );
}
