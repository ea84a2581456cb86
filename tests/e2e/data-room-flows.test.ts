/**
 * The investor data room in headless Chromium against the real server (PIN e2e-pin-4242 from
 * the e2e global setup): the access dialog, the grant's lifetime, the page, the viewer, and
 * axe at phone and desktop widths. Wrong PINs are kept to two: every browser test shares one
 * client address and its rate limit.
 */
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, seriousAxeViolations, viewports } from '../support/browser';
import { gotoHydrated } from '../support/hydration';

const PIN = 'e2e-pin-4242';
const GRANT_KEY = 'lyceum.data-room.grant';
const screenshotDir = '/tmp/dataroom-shots';
const baseUrl = inject('baseUrl');

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  fs.mkdirSync(screenshotDir, { recursive: true });
});
afterAll(() => browser?.close());

async function newPage(
  viewport: { width: number; height: number } = viewports.desktop,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  return { context, page };
}

function dialog(page: Page) {
  return page.getByRole('dialog', { name: 'Data Room Access' });
}

function pinField(page: Page) {
  return dialog(page).getByPlaceholder('Enter PIN');
}

function submitButton(page: Page) {
  return dialog(page).getByRole('button', { name: /Access Data Room|Verifying\.\.\./ });
}

/** Presses the header's Data Room button (on a hydrated page: see gotoHydrated). */
async function openDialogFromHeader(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Data Room' }).click();
  await dialog(page).waitFor();
}

/** Enters the data room the way a visitor does: header button, PIN, Enter. */
async function enterDataRoom(page: Page) {
  await gotoHydrated(page, `${baseUrl}/`);
  await openDialogFromHeader(page);
  await pinField(page).fill(PIN);
  await pinField(page).press('Enter');
  await page.waitForURL(`${baseUrl}/data-room`);
  await page.getByRole('heading', { level: 1, name: 'Due Diligence Data Room' }).waitFor();
}

async function toastText(page: Page, text: string) {
  await page.locator('[data-sonner-toast]', { hasText: text }).first().waitFor();
  return true;
}

/**
 * Waits until every finite animation and transition on the page has finished (the dialog's
 * zoom, the toast sliding in), so screenshots and axe's contrast check see the final state.
 */
async function animationsFinished(page: Page) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getTiming().iterations === Infinity,
      ),
  );
}

describe('data room access dialog', () => {
  it('shows the specified texts, a masked 20-character field and the disabled states', async () => {
    const { context, page } = await newPage();
    await gotoHydrated(page, `${baseUrl}/`);
    await openDialogFromHeader(page);
    const box = dialog(page);
    expect(
      await box
        .getByText(
          'This area contains confidential investor documentation. Please enter the access PIN to continue.',
        )
        .count(),
    ).toBe(1);
    expect(
      await box
        .getByText('For qualified investors only. Unauthorized access is prohibited.')
        .count(),
    ).toBe(1);
    const field = pinField(page);
    expect(await field.getAttribute('type')).toBe('password');
    expect(await field.getAttribute('maxlength')).toBe('20');
    expect(await field.getAttribute('autocomplete')).toBe('current-password');
    // The dialog moves focus into itself in an effect after it shows.
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);

    const submit = submitButton(page);
    expect(await submit.textContent()).toBe('Access Data Room');
    expect(await submit.isDisabled()).toBe(true);
    await field.fill('    ');
    expect(await submit.isDisabled()).toBe(true);
    await field.fill('x'.repeat(25));
    expect((await field.inputValue()).length).toBe(20);
    await expect.poll(() => submit.isEnabled()).toBe(true);

    // Cancel closes the dialog and clears the field.
    await box.getByRole('button', { name: 'Cancel' }).click();
    await box.waitFor({ state: 'detached' });
    await openDialogFromHeader(page);
    expect(await pinField(page).inputValue()).toBe('');
    await context.close();
  });

  it('verifies a wrong PIN on the server: Verifying..., toast, cleared field, dialog open', async () => {
    const { context, page } = await newPage();
    await gotoHydrated(page, `${baseUrl}/`);
    await openDialogFromHeader(page);
    // The server's answer is held until the busy state has been read: answered at once, the
    // button would already be back to its label when the test looks.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/functions/v1/data-room-access', async (route) => {
      await held;
      await route.continue();
    });
    await pinField(page).fill('not-the-pin');
    await submitButton(page).click();
    const busy = submitButton(page);
    await expect.poll(() => busy.textContent()).toBe('Verifying...');
    expect(await busy.isDisabled()).toBe(true);
    release();
    expect(await toastText(page, 'Incorrect PIN. Please try again.')).toBe(true);
    expect(await pinField(page).inputValue()).toBe('');
    expect(await dialog(page).isVisible()).toBe(true);
    expect(await submitButton(page).textContent()).toBe('Access Data Room');
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.evaluate((key) => sessionStorage.getItem(key), GRANT_KEY)).toBeNull();
    await context.close();
  });

  it('accepts a pasted PIN from the home page card and opens the data room', async () => {
    const { context, page } = await newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    await gotoHydrated(page, `${baseUrl}/`);
    const card = page.getByRole('button', { name: 'Open Data Room' });
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${screenshotDir}/home-card-desktop.png` });
    await card.click();
    await dialog(page).waitFor();
    await page.evaluate((pin) => navigator.clipboard.writeText(pin), PIN);
    await pinField(page).focus();
    await page.keyboard.press('ControlOrMeta+V');
    expect(await pinField(page).inputValue()).toBe(PIN);
    await submitButton(page).click();
    expect(await toastText(page, 'Access granted to Data Room')).toBe(true);
    await page.waitForURL(`${baseUrl}/data-room`);
    const stored = await page.evaluate((key) => sessionStorage.getItem(key), GRANT_KEY);
    expect(JSON.parse(stored!)).toMatchObject({ token: expect.stringMatching(/^ey/) });
    await context.close();
  });
});

describe('data room grant', () => {
  it('survives a reload, not a new browser session; the header goes straight in', async () => {
    const { context, page } = await newPage();
    await enterDataRoom(page);
    const header = page.getByRole('banner').getByRole('button', { name: 'Data Room' });
    expect(await header.getAttribute('aria-current')).toBe('page');

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Due Diligence Data Room' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/data-room');

    await gotoHydrated(page, `${baseUrl}/platform-overview`);
    expect(await header.getAttribute('aria-current')).toBeNull();
    await header.click();
    await page.waitForURL(`${baseUrl}/data-room`);
    expect(await dialog(page).count()).toBe(0);

    // A new browser context is a new browser session: no grant, back to the home page.
    const fresh = await newPage();
    await fresh.page.goto(`${baseUrl}/platform-overview`);
    await fresh.page.goto(`${baseUrl}/data-room`);
    await fresh.page.waitForURL(`${baseUrl}/`);
    expect(await fresh.page.getByRole('heading', { name: 'Due Diligence Data Room' }).count()).toBe(
      0,
    );
    // The redirect replaced the /data-room entry: Back returns to the page before it.
    await fresh.page.goBack();
    await fresh.page.waitForURL(`${baseUrl}/platform-overview`);
    await fresh.context.close();
    await context.close();
  });

  it('forgets the grant on "Leave data room" and then refuses the page', async () => {
    const { context, page } = await newPage();
    await enterDataRoom(page);
    await page.getByRole('button', { name: 'Leave data room' }).click();
    await page.waitForURL(`${baseUrl}/`);
    expect(await page.evaluate((key) => sessionStorage.getItem(key), GRANT_KEY)).toBeNull();
    await page.goto(`${baseUrl}/data-room`);
    await page.waitForURL(`${baseUrl}/`);
    await context.close();
  });

  it('forgets a grant the server no longer accepts', async () => {
    const { context, page } = await newPage();
    await gotoHydrated(page, `${baseUrl}/`);
    await page.evaluate(
      ([key, value]) => sessionStorage.setItem(key!, value!),
      [
        GRANT_KEY,
        JSON.stringify({ token: 'a.b.c', expiresAt: Math.floor(Date.now() / 1000) + 3600 }),
      ],
    );
    await page.goto(`${baseUrl}/data-room`);
    await page.waitForURL(`${baseUrl}/`);
    expect(await page.evaluate((key) => sessionStorage.getItem(key), GRANT_KEY)).toBeNull();
    await context.close();
  });
});

describe('data room page', () => {
  it('shows the server figures, the README card, the tabs and the reading aids', async () => {
    const { context, page } = await newPage();
    await enterDataRoom(page);
    const main = page.locator('main');
    await main.getByText('Total Documents').waitFor();
    const overview = page.getByTestId('data-room-overview');
    await expect.poll(() => overview.innerText()).toMatch(/35\s*Total Documents/);
    expect(await overview.innerText()).toMatch(/8\s*Categories/);
    expect(await overview.innerText()).toMatch(/100%\s*Available/);
    expect(await overview.innerText()).toMatch(/6-8h\s*Review Time/);
    for (const badge of [
      'Version 2.0',
      'Updated October 4, 2025',
      'Confidential - Qualified Investors Only',
    ])
      expect(await main.getByText(badge, { exact: true }).count()).toBeGreaterThan(0);
    expect(await main.getByText('READ FIRST').count()).toBe(1);
    expect(await main.getByRole('heading', { name: 'Master README - Start Here' }).count()).toBe(1);

    const tabs = page.getByRole('tab');
    expect(await tabs.allInnerTexts()).toEqual(['Legal', 'Financial', 'Business', 'Other']);
    expect(await page.getByRole('tab', { name: 'Legal' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    const legal = page.getByRole('tabpanel');
    for (const heading of [
      '1.1 Formation and Corporate Structure',
      '1.2 Intellectual Property',
      '1.3 Material Contracts',
    ])
      expect(await legal.getByRole('heading', { name: heading }).count()).toBe(1);
    const row = legal.getByRole('row', { name: /Capitalization Table/ });
    expect(await row.innerText()).toMatch(
      /legal\/capitalization-table\.md[\s\S]*v2\.0[\s\S]*Oct 2025[\s\S]*Available/,
    );

    await page.getByRole('tab', { name: 'Financial' }).click();
    const financial = page.getByRole('tabpanel');
    expect(
      await financial.getByRole('row', { name: /Detailed Financial Model/ }).innerText(),
    ).toMatch(/v3\.0/);
    await page.getByRole('tab', { name: 'Other' }).click();
    await expect
      .poll(() =>
        page
          .getByRole('tabpanel')
          .getByRole('heading', { name: 'Additional Supporting Documents' })
          .count(),
      )
      .toBe(1);

    for (const heading of [
      'Due Diligence Checklist',
      'Additional Materials on Request',
      'Document Access Instructions',
      'Confidentiality',
      'Contact',
      'Summary',
    ])
      expect(await main.getByRole('heading', { name: heading, exact: true }).count()).toBe(1);
    for (const column of ['Financial', 'Legal', 'Commercial'])
      expect(await main.getByRole('heading', { level: 3, name: column, exact: true }).count()).toBe(
        1,
      );
    const tree = await main.getByLabel('Investor pack folders').innerText();
    for (const folder of [
      'financial',
      'legal',
      'compliance',
      'team',
      'technical',
      'hr',
      'marketing',
      'due_diligence',
    ])
      expect(tree).toContain(`${folder}/`);
    const summary = await page.getByTestId('data-room-summary').innerText();
    expect(summary).toMatch(/Documents available\s*35/);
    expect(summary).toMatch(/Listed documents available\s*100%/);
    expect(summary).toMatch(/Last updated\s*October 4, 2025/);
    expect(
      await main.getByRole('link', { name: 'investors@lyceum.education' }).getAttribute('href'),
    ).toBe('mailto:investors@lyceum.education');
    await context.close();
  });
});

describe('document viewer', () => {
  it('opens a document with its path as title, renders Markdown, downloads and goes full screen', async () => {
    const { context, page } = await newPage();
    await enterDataRoom(page);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      '**/functions/v1/data-room/documents/legal/capitalization-table.md',
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await page.getByRole('button', { name: 'legal/capitalization-table.md' }).click();
    const viewer = page.getByRole('dialog', { name: 'legal/capitalization-table.md' });
    await viewer.waitFor();
    expect(await viewer.getByText('Loading...').count()).toBe(1);
    release();
    await viewer.getByRole('heading', { name: 'Capitalization Table' }).waitFor();
    expect(await viewer.getByRole('table').count()).toBeGreaterThan(0);
    expect(
      await viewer.getByRole('columnheader', { name: 'Fully diluted' }).count(),
    ).toBeGreaterThan(0);
    const box = await viewer.boundingBox();
    expect(box!.height).toBeLessThanOrEqual(viewports.desktop.height * 0.8 + 1);

    const downloadPromise = page.waitForEvent('download');
    await viewer.getByRole('button', { name: 'Download' }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toBe('capitalization-table.md');
    expect(fs.readFileSync((await download.path())!, 'utf8')).toContain('# Capitalization Table');

    await viewer.getByRole('button', { name: 'Full screen' }).click();
    await expect.poll(() => page.evaluate(() => document.fullscreenElement !== null)).toBe(true);
    await expect.poll(() => viewer.getAttribute('data-fullscreen')).toBe('true');
    expect(await viewer.getByRole('button', { name: 'Exit full screen' }).count()).toBe(1);
    // Leaving full screen by the browser's own means is followed too.
    await page.evaluate(() => document.exitFullscreen());
    await expect.poll(() => viewer.getAttribute('data-fullscreen')).toBe('false');

    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    // Closing cleared the selection: the next document opens on its own.
    await page.getByRole('button', { name: 'Open due_diligence/master-readme.md' }).click();
    const readme = page.getByRole('dialog', { name: 'due_diligence/master-readme.md' });
    await readme.getByRole('heading', { name: 'Master README — Start Here' }).waitFor();
    expect(await readme.getByText('Sample content').count()).toBeGreaterThan(0);
    await context.close();
  });

  it('shows the error text and logs it when a document cannot be loaded', async () => {
    const { context, page } = await newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await enterDataRoom(page);
    await page.route('**/functions/v1/data-room/documents/legal/bylaws.md', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' }),
    );
    await page.getByRole('button', { name: 'legal/bylaws.md' }).click();
    const viewer = page.getByRole('dialog', { name: 'legal/bylaws.md' });
    await viewer.getByText('Error loading file content.').waitFor();
    expect(
      errors.some((line) => line.includes('Error loading data room document legal/bylaws.md')),
    ).toBe(true);
    await context.close();
  });

  it('empties links with unsafe schemes and keeps the allowed ones', async () => {
    const { context, page } = await newPage();
    await enterDataRoom(page);
    const markdown = [
      '# Links',
      '[web](https://example.com/a) [mail](mailto:ir@example.com) [chat](xmpp:ir@example.com)',
      '[relative](../legal/bylaws.md) [script](javascript:alert(1)) [data](data:text/html,<b>x</b>)',
      '[vb](vbscript:msgbox) [file](file:///etc/passwd)',
    ].join('\n\n');
    await page.route('**/functions/v1/data-room/documents/legal/bylaws.md', (route) =>
      route.fulfill({ status: 200, contentType: 'text/markdown; charset=utf-8', body: markdown }),
    );
    await page.getByRole('button', { name: 'legal/bylaws.md' }).click();
    const viewer = page.getByRole('dialog', { name: 'legal/bylaws.md' });
    await viewer.getByRole('heading', { name: 'Links' }).waitFor();
    const hrefs = await viewer
      .getByTestId('document-markdown')
      .locator('a')
      .evaluateAll((links) => links.map((a) => [a.textContent, a.getAttribute('href')]));
    expect(Object.fromEntries(hrefs)).toEqual({
      web: 'https://example.com/a',
      mail: 'mailto:ir@example.com',
      chat: 'xmpp:ir@example.com',
      relative: '../legal/bylaws.md',
      script: '',
      data: '',
      vb: '',
      file: '',
    });
    await context.close();
  });
});

describe('data room accessibility and screenshots', () => {
  for (const [name, viewport] of Object.entries(viewports)) {
    it(`has no serious axe violations at ${viewport.width} px (dialog, page, viewer)`, async () => {
      const { context, page } = await newPage(viewport);
      await gotoHydrated(page, `${baseUrl}/`);
      await openDialogFromHeader(page);
      await pinField(page).fill('abc');
      await page.screenshot({ path: `${screenshotDir}/dialog-${name}.png` });
      expect(await seriousAxeViolations(page)).toEqual([]);
      await pinField(page).fill(PIN);
      await pinField(page).press('Enter');
      await page.waitForURL(`${baseUrl}/data-room`);
      await page.getByTestId('data-room-summary').waitFor();
      await page.getByRole('row', { name: /Articles of Incorporation/ }).waitFor();
      await animationsFinished(page);
      await page.screenshot({ path: `${screenshotDir}/page-${name}.png`, fullPage: true });
      await page.screenshot({ path: `${screenshotDir}/page-top-${name}.png` });
      await page.getByRole('tablist').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${screenshotDir}/page-documents-${name}.png` });
      expect(await seriousAxeViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'legal/capitalization-table.md' }).click();
      const viewer = page.getByRole('dialog', { name: 'legal/capitalization-table.md' });
      await viewer.getByRole('heading', { name: 'Capitalization Table' }).waitFor();
      await animationsFinished(page);
      await page.screenshot({ path: `${screenshotDir}/viewer-${name}.png` });
      expect(await seriousAxeViolations(page)).toEqual([]);
      await context.close();
    });
  }
});
