/**
 * The consent banner and the privacy settings in a browser (issue 16, decision 0410): a first
 * visit meets the banner with focus on it; "Reject all" is the same kind of button as "Accept
 * all", side by side; "Choose" opens the categories; functional storage (the sidebar cookie)
 * waits for consent; a visitor's choice reaches the account on sign-in; withdrawing on
 * /app/privacy really clears the cookies and storage; axe at 390 and 1280 px.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentPolicyVersion } from '../../src/common/consent';
import { startAppBrowser, type AppBrowser, type Person } from '../support/app-browser';
import { acceptedConsentScript, seriousAxeViolations, viewports } from '../support/browser';

let app: AppBrowser;
let learner: Person;
const docPath = '/data-encryption';

beforeAll(async () => {
  app = await startAppBrowser('privacy-consent', { firstVisit: true });
  learner = await app.createUser('consent-learner', 'Consent Learner');
}, 120_000);
afterAll(async () => {
  await app?.close();
});

async function storedConsent(page: Page) {
  return page.evaluate(() => {
    const raw = localStorage.getItem('lyceum.consent');
    return raw ? (JSON.parse(raw) as { choices: Record<string, boolean> }) : null;
  });
}

async function cookieNames(page: Page): Promise<string[]> {
  return (await page.context().cookies(app.baseUrl)).map((c) => c.name).sort();
}

/** Signed in as the learner in a browser that already made a consent choice (no banner). */
async function signedIn(viewport: keyof typeof viewports, at: string): Promise<Page> {
  const page = await app.newPage(viewport);
  await page.context().addInitScript(acceptedConsentScript);
  await page.goto(`${app.baseUrl}/login?next=${encodeURIComponent(at)}`, {
    waitUntil: 'networkidle',
  });
  await app.signIn(page, learner.email);
  await page.waitForURL(app.baseUrl + at);
  return page;
}

function banner(page: Page) {
  return page.getByRole('dialog', { name: 'Your privacy choices' });
}

describe('consent banner', () => {
  it('greets a first visit with focus, an equal Reject and Accept, and works by keyboard', async () => {
    for (const viewport of ['mobile', 'desktop'] as const) {
      const page = await app.newPage(viewport);
      try {
        await page.goto(app.baseUrl + docPath, { waitUntil: 'networkidle' });
        await banner(page).waitFor();
        await expect
          .poll(() => page.evaluate(() => document.activeElement?.textContent))
          .toBe('Your privacy choices');
        expect(await seriousAxeViolations(page), `banner at ${viewport}`).toEqual([]);
        await app.shot(page, `banner-${viewport}`);

        const reject = banner(page).getByRole('button', { name: 'Reject all' });
        const accept = banner(page).getByRole('button', { name: 'Accept all' });
        const [rb, ab] = [await reject.boundingBox(), await accept.boundingBox()];
        expect(rb!.width).toBeCloseTo(ab!.width, 0);
        expect(rb!.height).toBeCloseTo(ab!.height, 0);
        expect(await reject.getAttribute('class')).toBe(await accept.getAttribute('class'));
        // Reject comes first in the tab order, so refusing takes no more keys than accepting.
        const order = await banner(page)
          .getByRole('button')
          .evaluateAll((buttons) => buttons.map((b) => b.textContent));
        expect(order).toEqual(['Reject all', 'Accept all', 'Choose']);

        await reject.focus();
        await page.keyboard.press('Enter');
        await banner(page).waitFor({ state: 'detached' });
        expect((await storedConsent(page))?.choices).toEqual({
          analytics: false,
          marketing: false,
          functional: false,
        });
        if (viewport === 'desktop') {
          // Without functional consent the sidebar still folds, but no cookie remembers it.
          await page.keyboard.press('Control+b');
          await expect
            .poll(() => page.locator('[data-slot="sidebar"]').first().getAttribute('data-state'))
            .toBe('collapsed');
          expect(await cookieNames(page)).not.toContain('sidebar_state');
        }
        await page.reload({ waitUntil: 'networkidle' });
        expect(await banner(page).count()).toBe(0);
      } finally {
        await page.context().close();
      }
    }
  });

  it('lets a visitor choose category by category, and the choice governs the sidebar cookie', async () => {
    const page = await app.newPage('desktop');
    try {
      await page.goto(app.baseUrl + docPath, { waitUntil: 'networkidle' });
      await banner(page).getByRole('button', { name: 'Choose' }).click();
      const analytics = page.getByRole('switch', { name: 'Analytics' });
      await expect.poll(() => analytics.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await page.getByRole('switch', { name: /Essential/ }).isDisabled()).toBe(true);
      expect(await page.getByRole('switch', { name: /Essential/ }).isChecked()).toBe(true);
      for (const name of ['Analytics', 'Marketing', 'Functional'])
        expect(await page.getByRole('switch', { name }).isChecked()).toBe(false);
      expect(await banner(page).textContent()).toContain('sidebar_state');
      expect(await seriousAxeViolations(page)).toEqual([]);
      await app.shot(page, 'banner-choose-desktop');

      await page.getByRole('switch', { name: 'Functional' }).check();
      await page.getByRole('button', { name: 'Save my choices' }).click();
      await banner(page).waitFor({ state: 'detached' });
      expect((await storedConsent(page))?.choices).toEqual({
        analytics: false,
        marketing: false,
        functional: true,
      });
      await page.keyboard.press('Control+b');
      await expect.poll(() => cookieNames(page)).toContain('sidebar_state');

      // The footer reopens the choices at any time.
      await page.getByRole('button', { name: 'Privacy choices' }).click();
      await banner(page).waitFor();
      expect(await page.getByRole('switch', { name: 'Functional' }).isChecked()).toBe(true);
      await banner(page).getByRole('button', { name: 'Reject all' }).click();
      await banner(page).waitFor({ state: 'detached' });
      await expect.poll(() => cookieNames(page)).not.toContain('sidebar_state');
    } finally {
      await page.context().close();
    }
  });
});

describe('consent on the account', () => {
  it("records a visitor's choice on the account at sign-in", async () => {
    const page = await app.newPage('desktop');
    try {
      await page.goto(`${app.baseUrl}/login?next=%2Fapp%2Fprivacy`, { waitUntil: 'networkidle' });
      await banner(page).getByRole('button', { name: 'Accept all' }).click();
      await app.signIn(page, learner.email);
      await page.waitForURL(`${app.baseUrl}/app/privacy`);
      await expect
        .poll(async () => {
          const { data } = await app.service
            .from('user_consent')
            .select('category, granted, source, policy_version')
            .eq('user_id', learner.id)
            .order('category');
          return data;
        })
        .toEqual(
          ['analytics', 'essential', 'functional', 'marketing'].map((category) => ({
            category,
            granted: true,
            source: 'banner',
            policy_version: consentPolicyVersion,
          })),
        );
    } finally {
      await page.context().close();
    }
  });

  it('withdraws on /app/privacy: the cookies and storage are cleared and the server records it', async () => {
    const page = await signedIn('desktop', '/app/privacy');
    try {
      await page.getByRole('heading', { level: 1, name: 'Privacy' }).waitFor();
      await page.getByRole('switch', { name: 'Analytics' }).waitFor();
      // What analytics and marketing tools and the functional features would have left here.
      await page.context().addCookies(
        ['_ga', '_ga_X1', '_fbp', '_gcl_au', 'sidebar_state'].map((name) => ({
          name,
          value: '1',
          url: app.baseUrl,
        })),
      );
      await page.evaluate(
        (id) => localStorage.setItem(`lyceum.workspace.${id}`, 'personal'),
        learner.id,
      );
      await page.context().addCookies([{ name: 'lyceum_other', value: 'kept', url: app.baseUrl }]);

      for (const name of ['Analytics', 'Marketing', 'Functional'])
        await page.getByRole('switch', { name }).uncheck();
      await page.getByRole('button', { name: 'Save choices' }).click();
      await page.getByText('Your privacy choices are saved.').waitFor();

      expect(await cookieNames(page)).toEqual(['lyceum_other']);
      expect(
        await page.evaluate(() =>
          Object.keys(localStorage).filter((k) => k.startsWith('lyceum.workspace.')),
        ),
      ).toEqual([]);
      const history = await app.service
        .from('user_consent_history')
        .select('category, granted, source')
        .eq('user_id', learner.id)
        .eq('source', 'withdrawal')
        .order('category');
      expect(history.data).toEqual([
        { category: 'analytics', granted: false, source: 'withdrawal' },
        { category: 'functional', granted: false, source: 'withdrawal' },
        { category: 'marketing', granted: false, source: 'withdrawal' },
      ]);
      // The app's sidebar state still works for the page, without a cookie.
      await page.reload({ waitUntil: 'networkidle' });
      expect(await banner(page).count()).toBe(0);
      for (const name of ['Analytics', 'Marketing', 'Functional'])
        expect(await page.getByRole('switch', { name }).isChecked()).toBe(false);
    } finally {
      await page.context().close();
    }
  });

  it('files a data request from /app/privacy and shows its status, and refuses a duplicate', async () => {
    const page = await signedIn('desktop', '/app/privacy');
    try {
      await page.getByRole('combobox', { name: 'Request' }).selectOption('portability');
      await page
        .getByRole('textbox', { name: /Details/ })
        .fill('Please send my study notes as a file.');
      await page.getByRole('button', { name: 'File request' }).click();
      const item = page.getByRole('listitem').filter({ hasText: 'Please send my study notes' });
      await item.waitFor();
      expect(await item.textContent()).toMatch(/Portability.*Pending.*due/);
      await page.getByRole('button', { name: 'File request' }).click();
      await page
        .getByText('Not filed: You already have an open portability request; it is being worked on')
        .waitFor();
      const { data } = await app.service
        .from('data_subject_requests')
        .select('request_type, status, details')
        .eq('user_id', learner.id);
      expect(data).toEqual([
        {
          request_type: 'portability',
          status: 'pending',
          details: 'Please send my study notes as a file.',
        },
      ]);
    } finally {
      await page.context().close();
    }
  });

  it('has no serious axe violations on /app/privacy at 390 and 1280 px', async () => {
    for (const viewport of ['mobile', 'desktop'] as const) {
      const page = await signedIn(viewport, '/app/privacy');
      try {
        await page.getByRole('heading', { level: 1, name: 'Privacy' }).waitFor();
        await page.getByRole('switch', { name: 'Analytics' }).waitFor();
        await page.waitForLoadState('networkidle');
        expect(await seriousAxeViolations(page), `privacy at ${viewport}`).toEqual([]);
        expect(page.viewportSize()?.width).toBe(viewports[viewport].width);
        await app.shot(page, `privacy-${viewport}`);
      } finally {
        await page.context().close();
      }
    }
  });
});
