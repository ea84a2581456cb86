/**
 * Studying offline in the installed app (issue 18, decision 0181), in headless Chromium with
 * its service worker and offline emulation: a learner keeps a course and their due cards on
 * the device, reloads with no network, reads a kept lesson, rates cards, and sees the ratings
 * reach the server once the connection returns; an expired session keeps the queue until the
 * same learner signs in again, and another account signing in meanwhile never sends it. A
 * first visit requests no script twice while it loads, and the worker keeps what it loaded
 * from the HTTP cache afterwards, so the page reloads offline (decision 0184).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSETS_CACHE } from '../../src/common/offline-caches';
import { insertRow } from '../integration/learning-fixture';
import { startAppBrowser, type AppBrowser, type Person } from '../support/app-browser';
import { seriousAxeViolations, viewports } from '../support/browser';

let app: AppBrowser;
let courseId: string;
let lessonId: string;

const lessonText = 'Chlorophyll absorbs red and blue light and reflects green.';

async function cardsFor(person: Person, fronts: string[]): Promise<string[]> {
  const deck = await insertRow<{ id: string }>(app.service, 'flashcard_decks', {
    user_id: person.id,
    name: 'Photosynthesis',
  });
  const ids: string[] = [];
  for (const front of fronts) {
    const card = await insertRow<{ id: string }>(app.service, 'flashcards', {
      user_id: person.id,
      deck_id: deck.id,
      front,
      back: `Answer to: ${front}`,
    });
    ids.push(card.id);
  }
  return ids;
}

async function enrol(person: Person) {
  await insertRow(app.service, 'enrollments', { user_id: person.id, course_id: courseId });
}

const reviewsOf = async (userId: string) =>
  ((
    await app.service
      .from('flashcard_reviews')
      .select('card_id, rating, client_op_id')
      .eq('user_id', userId)
  ).data ?? []) as { card_id: string; rating: number; client_op_id: string | null }[];

/** A context where the service worker may run, signed in through the sign-in page. */
async function installedApp(
  email: string,
  at: string,
  viewport: keyof typeof viewports = 'desktop',
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await app.browser.newContext({
    viewport: viewports[viewport],
    reducedMotion: 'reduce',
    serviceWorkers: 'allow',
  });
  const page = await context.newPage();
  await page.goto(`${app.baseUrl}/login?next=${encodeURIComponent(at)}`, {
    waitUntil: 'networkidle',
  });
  await app.signIn(page, email);
  await page.waitForURL(`${app.baseUrl}${at}`);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  return { context, page };
}

async function keepForOffline(page: Page, courseTitle: string | null) {
  await page.getByRole('heading', { level: 1, name: 'Offline study' }).waitFor();
  await page.getByRole('button', { name: 'Keep my due cards on this device' }).click();
  await page.getByText(/cards? kept offline\./).waitFor();
  if (courseTitle) {
    await page
      .getByRole('listitem')
      .filter({ hasText: courseTitle })
      .getByRole('button', { name: 'Make available offline' })
      .click();
    await page.getByText('2 lessons kept offline.').waitFor();
  }
}

async function rateShownCard(page: Page, rating: 'Good' | 'Easy') {
  await page.getByRole('button', { name: 'Show answer' }).click();
  await page.getByRole('button', { name: new RegExp(`^\\d · ${rating}`) }).click();
}

const status = (page: Page) => page.getByTestId('sync-status').textContent();

beforeAll(async () => {
  app = await startAppBrowser('offline-study');
  const org = await insertRow<{ id: string }>(app.service, 'organizations', {
    name: 'Open Botany School',
    slug: 'open-botany-school',
  });
  const course = await insertRow<{ id: string }>(app.service, 'courses', {
    organization_id: org.id,
    title: 'Plant biology',
    subject: 'Biology',
    published: true,
    visibility: 'public',
  });
  courseId = course.id;
  const module = await insertRow<{ id: string }>(app.service, 'modules', {
    course_id: courseId,
    position: 1,
    title: 'Light',
    summary: 'How plants use light.',
  });
  const lesson = await insertRow<{ id: string }>(app.service, 'lessons', {
    module_id: module.id,
    course_id: courseId,
    position: 1,
    title: 'Pigments',
    kind: 'markdown',
    body: `# Pigments\n\n${lessonText}\n`,
    estimated_minutes: 5,
  });
  lessonId = lesson.id;
  await insertRow(app.service, 'lessons', {
    module_id: module.id,
    course_id: courseId,
    position: 2,
    title: 'Leaf anatomy',
    kind: 'markdown',
    body: 'Stomata open and close.',
    estimated_minutes: 4,
  });
});
afterAll(() => app?.close());

describe('offline study', () => {
  it('reads a kept lesson and rates kept cards offline, then sends the ratings once back online', async () => {
    const learner = await app.createUser('offline-learner', 'Olive Offline');
    await enrol(learner);
    const cards = await cardsFor(learner, ['What do leaves take in?', 'What do leaves give off?']);
    const { context, page } = await installedApp(learner.email, '/app/offline');
    try {
      await keepForOffline(page, 'Plant biology');

      await context.setOffline(true);
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Offline study' }).waitFor();
      await expect.poll(() => status(page)).toBe('Offline');
      expect(await seriousAxeViolations(page), 'offline study, offline').toEqual([]);

      await page.getByRole('link', { name: 'Pigments' }).click();
      await page.getByText(lessonText).waitFor();
      await page.getByText('You are offline: this is the copy kept on this device.').waitFor();
      await page.waitForURL(`${app.baseUrl}/app/courses/${courseId}/lessons/${lessonId}`);

      await page.goto(`${app.baseUrl}/app/flashcards/review`);
      await page.getByText('You are offline: reviewing the cards kept on this device.').waitFor();
      await rateShownCard(page, 'Good');
      await rateShownCard(page, 'Easy');
      await expect.poll(() => status(page)).toBe('Offline · 2 changes waiting');
      expect(await seriousAxeViolations(page), 'review, offline').toEqual([]);
      expect(await reviewsOf(learner.id)).toEqual([]);

      await context.setOffline(false);
      await expect.poll(() => status(page)).toBe('All changes sent');
      const sent = await reviewsOf(learner.id);
      expect(sent.map((r) => r.card_id).sort()).toEqual([...cards].sort());
      expect(sent.every((r) => r.client_op_id !== null)).toBe(true);
      const { data } = await app.service.from('flashcards').select('reps').in('id', cards);
      expect((data as { reps: number }[]).map((c) => c.reps)).toEqual([1, 1]);
    } finally {
      await context.close();
    }
  });

  it('keeps the queue through an expired session and sends it for the same learner only', async () => {
    const learner = await app.createUser('expiring-learner', 'Eve Expiring');
    const other = await app.createUser('other-learner', 'Otto Other');
    const [card] = await cardsFor(learner, ['Where does photosynthesis happen?']);
    const { context, page } = await installedApp(learner.email, '/app/offline');
    try {
      await keepForOffline(page, null);
      await context.setOffline(true);
      await page.goto(`${app.baseUrl}/app/flashcards/review`);
      await rateShownCard(page, 'Good');
      await expect.poll(() => status(page)).toBe('Offline · 1 change waiting');

      // While the device is offline the session ends on the server and its access token runs out.
      const token = await page.evaluate(() => {
        const key = Object.keys(localStorage).find((k) => /^sb-.+-auth-token$/.test(k))!;
        const session = JSON.parse(localStorage.getItem(key)!) as {
          access_token: string;
          expires_at: number;
        };
        localStorage.setItem(
          key,
          JSON.stringify({ ...session, expires_at: Math.floor(Date.now() / 1000) - 60 }),
        );
        return session.access_token;
      });
      expect((await app.service.auth.admin.signOut(token, 'global')).error).toBeNull();
      await page.reload();
      await page.getByText('You are offline: reviewing the cards kept on this device.').waitFor();

      await context.setOffline(false);
      await page.waitForURL(/\/login\?next=/);
      expect(await reviewsOf(learner.id)).toEqual([]);

      // Another account on this device: the learner's queue is not theirs to send.
      await app.signIn(page, other.email);
      await page.waitForURL(/\/app\//);
      await page.goto(`${app.baseUrl}/app/offline`);
      await page.getByTestId('sync-summary').waitFor();
      expect(await page.getByTestId('sync-summary').textContent()).toBe(
        'Nothing is waiting to be sent.',
      );
      expect(await reviewsOf(learner.id)).toEqual([]);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(/\/login/);

      await page.goto(`${app.baseUrl}/login?next=${encodeURIComponent('/app/offline')}`);
      await app.signIn(page, learner.email);
      await page.waitForURL(`${app.baseUrl}/app/offline`);
      await expect.poll(async () => (await reviewsOf(learner.id)).length).toBe(1);
      expect((await reviewsOf(learner.id))[0]).toMatchObject({ card_id: card, rating: 3 });
      expect(await reviewsOf(other.id)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('signing out deletes the device’s copy, after asking when ratings still wait', async () => {
    const learner = await app.createUser('leaving-learner', 'Lee Leaving');
    await cardsFor(learner, ['What gas do plants release?']);
    const { context, page } = await installedApp(learner.email, '/app/offline');
    try {
      await keepForOffline(page, null);
      await context.setOffline(true);
      await page.goto(`${app.baseUrl}/app/flashcards/review`);
      await rateShownCard(page, 'Good');
      await expect.poll(() => status(page)).toBe('Offline · 1 change waiting');
      // Back online, but the ratings cannot get through: the learner signs out, the app asks.
      await context.route('**/functions/v1/flashcards/review', (route) => route.abort());
      await context.setOffline(false);
      await expect.poll(() => status(page)).toBe('Not sent: No connection to Lyceum.');
      await page.getByRole('button', { name: 'Sign out' }).click();
      const dialog = page.getByRole('dialog', { name: 'Changes not sent yet' });
      await dialog.waitFor();
      expect(await seriousAxeViolations(page), 'unsent changes dialog').toEqual([]);
      await dialog.getByRole('button', { name: 'Sign out and delete it' }).click();
      await page.waitForURL(/\/login/);
      // The sign-in page can show (the session is gone) a moment before the deletion finishes.
      const kept = () =>
        page.evaluate(async () =>
          (await indexedDB.databases())
            .map((database) => database.name)
            .filter((name) => name?.startsWith('lyceum-offline:')),
        );
      await expect.poll(kept, { timeout: 5_000 }).toEqual([]);
      expect(await page.evaluate(() => localStorage.getItem('lyceum-offline-user'))).toBeNull();
    } finally {
      await context.close();
    }
  });
});

describe('the first visit', () => {
  it('keeps the app for offline use without requesting a loaded script again while the page loads', async () => {
    const learner = await app.createUser('first-visit', 'Fay First');
    await enrol(learner);
    // Signed in from a context without the worker: the next context's first page is its first visit.
    const signedIn = await app.signedInPage('desktop', learner.email, '/app');
    const storageState = await signedIn.context().storageState();
    await signedIn.context().close();
    const context = await app.browser.newContext({
      viewport: viewports.desktop,
      reducedMotion: 'reduce',
      serviceWorkers: 'allow',
      storageState,
    });
    try {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      let loading = true;
      const scripts: { id: string; url: string; duringLoad: boolean }[] = [];
      const fromCache = new Set<string>();
      cdp.on('Network.requestWillBeSent', ({ requestId, request }) => {
        if (/^\/assets\/.+\.m?js$/.test(new URL(request.url).pathname)) {
          scripts.push({ id: requestId, url: request.url, duringLoad: loading });
        }
      });
      cdp.on('Network.requestServedFromCache', ({ requestId }) => fromCache.add(requestId));
      cdp.on('Network.responseReceived', ({ requestId, response }) => {
        if (response.fromDiskCache) fromCache.add(requestId);
      });

      await page.goto(`${app.baseUrl}/app/offline`, { waitUntil: 'networkidle' });
      await page.getByRole('heading', { level: 1, name: 'Offline study' }).waitFor();
      loading = false;
      const loaded = scripts.map((script) => script.url);
      expect(loaded.length).toBeGreaterThan(10);
      expect(
        loaded.filter((url, index) => loaded.indexOf(url) !== index),
        'scripts requested twice while the first page loaded',
      ).toEqual([]);

      // Once the load is over the worker keeps every script the page loaded, from the HTTP cache.
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      await expect
        .poll(() =>
          page.evaluate(
            async ([cacheName, urls]) => {
              const assets = await caches.open(cacheName);
              const kept = await Promise.all(urls.map((url) => assets.match(url)));
              return kept.filter((response) => !response).length;
            },
            [ASSETS_CACHE, loaded] as const,
          ),
        )
        .toBe(0);
      const downloadedAgain = scripts.filter(
        (script) => !script.duringLoad && loaded.includes(script.url) && !fromCache.has(script.id),
      );
      expect(downloadedAgain.map((script) => script.url)).toEqual([]);

      // The page the first visit loaded reloads with no network from what the worker kept.
      // A second CDP session's network agent would keep navigator.onLine true offline.
      await cdp.detach();
      await context.setOffline(true);
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Offline study' }).waitFor();
      await expect.poll(() => status(page)).toBe('Offline');
    } finally {
      await context.close();
    }
  });
});

describe('the offline study screen', () => {
  it('has no serious axe violations at 390 and 1280 px', async () => {
    const learner = await app.createUser('axe-offline', 'Ada Axe');
    await enrol(learner);
    await app.expectNoSeriousAxeViolations(
      learner.email,
      '/app/offline',
      'offline-study',
      'Offline study',
    );
  });
});
