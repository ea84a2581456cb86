/**
 * Settings in headless Chromium (decision 0170): a text size chosen there changes the whole
 * app and survives a reload and a new browser; a file that is not a picture is refused with a
 * message and a real picture becomes the avatar; axe at 390 and 1280 px.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppBrowser, type AppBrowser, type Person } from '../support/app-browser';

let app: AppBrowser;
let learner: Person;

/** A valid 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAX+XDSwAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  app = await startAppBrowser('study-settings');
  learner = await app.createUser('settings-learner', 'Sam Settings');
});
afterAll(() => app?.close());

const rootFontSize = (page: Page) =>
  page.evaluate(() => getComputedStyle(document.documentElement).fontSize);

describe('settings', () => {
  it('changes the text size of the whole app, and it survives a reload and a new browser', async () => {
    const page = await app.signedInPage('desktop', learner.email, '/app/settings');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    expect(await rootFontSize(page)).toBe('16px');
    await page.getByRole('radio', { name: 'Largest' }).check();
    await page.getByRole('checkbox', { name: 'High contrast' }).check();
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await page.getByText('Preferences saved and applied.').waitFor();
    expect(await rootFontSize(page)).toBe('24px');
    expect(await page.locator('html').getAttribute('data-a11y-contrast')).toBe('more');

    // Another screen of the app has it too, and so does a reload: the attribute is set before
    // the app's code runs (the inline script), so the first paint is already large.
    await page.goto(`${app.baseUrl}/app`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await rootFontSize(page)).toBe('24px');
    // What the attribute was when <body> was parsed: before the app's module script ran and
    // before anything could be painted.
    await page.addInitScript(() => {
      const observer = new MutationObserver(() => {
        if (!document.body) return;
        (window as unknown as { atBody: string | null }).atBody =
          document.documentElement.getAttribute('data-a11y-text');
        observer.disconnect();
      });
      observer.observe(document, { childList: true, subtree: true });
    });
    await page.reload();
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await page.evaluate(() => (window as unknown as { atBody: string | null }).atBody)).toBe(
      'largest',
    );
    expect(await rootFontSize(page)).toBe('24px');
    await page.context().close();

    // A browser that never saw them gets them from the server once signed in.
    const elsewhere = await app.freshSignIn('mobile', learner.email, '/app/settings');
    await elsewhere.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await elsewhere.waitForFunction(
      () => document.documentElement.getAttribute('data-a11y-text') === 'largest',
    );
    expect(await rootFontSize(elsewhere)).toBe('24px');
    expect(await elsewhere.getByRole('radio', { name: 'Largest' }).isChecked()).toBe(true);
    // Back to standard for the other tests.
    await elsewhere.getByRole('radio', { name: 'Standard' }).first().check();
    await elsewhere.getByRole('checkbox', { name: 'High contrast' }).uncheck();
    await elsewhere.getByRole('button', { name: 'Save preferences' }).click();
    await elsewhere.getByText('Preferences saved and applied.').waitFor();
    expect(await rootFontSize(elsewhere)).toBe('16px');
    await elsewhere.context().close();
  });

  it('refuses a file that is not a picture with a message, and takes a real one', async () => {
    const page = await app.signedInPage('desktop', learner.email, '/app/settings');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByTestId('avatar-file').setInputFiles({
      name: 'notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('this is plain text, not a picture'),
    });
    await page
      .getByRole('alert')
      .filter({ hasText: 'is not a picture this browser can read' })
      .waitFor();
    expect(await page.getByRole('img', { name: 'Your profile picture' }).count()).toBe(0);

    await page.getByTestId('avatar-file').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: PNG,
    });
    await page.getByText('Profile picture updated.').waitFor();
    // The stored picture is served from the public bucket and decodes in the browser.
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('img[alt="Your profile picture"]');
      return img !== null && img.complete && img.naturalWidth === 1;
    });
    const stored = await app.service
      .from('profiles')
      .select('avatar_url')
      .eq('id', learner.id)
      .single();
    expect(stored.data?.avatar_url).toMatch(
      new RegExp(`/avatars/${learner.id}/avatar-\\d+\\.(webp|jpg)$`),
    );
    await page.context().close();
  });

  it('has no serious axe violations at 390 and 1280 px', async () => {
    await app.expectNoSeriousAxeViolations(learner.email, '/app/settings', 'settings', 'Settings');
  });
});
