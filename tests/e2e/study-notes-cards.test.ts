/**
 * Notes and flashcards in headless Chromium (decisions 0160–0162): a learner writes a note that
 * saves itself and finds it by search, makes a deck and a card, reviews it by keyboard until
 * nothing is due and sees the review in the statistics, imports a CSV with a bad line and exports
 * the deck for Anki; axe at 390 and 1280 px on the three screens.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppBrowser, type AppBrowser, type Person } from '../support/app-browser';

let app: AppBrowser;
let learner: Person;

beforeAll(async () => {
  app = await startAppBrowser('study-notes-cards');
  learner = await app.createUser('cards-learner', 'Casey Cards');
});
afterAll(() => app?.close());

describe('notes and flashcards', () => {
  it('saves a note as the learner types and finds it by a word of its body', async () => {
    const page = await app.signedInPage('desktop', learner.email, '/app/notes/new');
    await page.getByRole('heading', { level: 1, name: 'New note' }).waitFor();
    await page.getByLabel('Title').fill('Gas exchange');
    await page.getByLabel('Tags (separated by commas)').fill('biology, lungs');
    await page
      .getByLabel('Note (Markdown)')
      .fill('Oxygen diffuses from the **alveoli** into the capillaries.');
    await page.getByText(/^Saved/).waitFor();
    // The editor moves to the saved note's own address.
    await page.waitForURL(/\/app\/notes\/[0-9a-f-]{36}$/);

    await page.getByRole('tab', { name: 'Preview' }).click();
    await page.getByRole('tabpanel').locator('strong', { hasText: 'alveoli' }).waitFor();
    await app.shot(page, 'note-saved');

    await page.goto(`${app.baseUrl}/app/notes`);
    await page.getByLabel('Search notes').fill('capillaries');
    await page.getByLabel('Search notes').press('Enter');
    await page.getByRole('link', { name: 'Gas exchange' }).waitFor();
    await page.getByLabel('Search notes').fill('mitochondria');
    await page.getByLabel('Search notes').press('Enter');
    await expect.poll(() => page.getByRole('link', { name: 'Gas exchange' }).count()).toBe(0);
    await page.context().close();
  });

  it('makes a deck and a card, then reviews it by keyboard until nothing is due', async () => {
    const page = await app.signedInPage('desktop', learner.email, '/app/flashcards');
    await page.getByRole('heading', { level: 1, name: 'Flashcards' }).waitFor();
    await page.getByRole('button', { name: 'Create deck' }).click();
    await page.getByText('Give the deck a name.').waitFor();
    await page.getByLabel('Name').fill('Respiration');
    await page.getByRole('button', { name: 'Create deck' }).click();
    await page.getByText('Deck “Respiration” created.').waitFor();

    await page.getByRole('link', { name: 'New card' }).click();
    await page.getByRole('combobox', { name: 'Deck' }).selectOption({ label: 'Respiration' });
    await page.getByRole('button', { name: 'Add card' }).click();
    await page.getByText('Write the front of the card.').waitFor();
    await page.getByLabel('Front (question)').fill('Where does gas exchange happen in the lungs?');
    await page.getByLabel('Back (answer)').fill('In the alveoli.');
    await page.getByRole('button', { name: 'Add card' }).click();
    await page.getByText('Card added.').waitFor();

    await page.goto(`${app.baseUrl}/app/flashcards`);
    await page.getByRole('link', { name: 'Review all due (1)' }).click();
    await page.getByText('Where does gas exchange happen in the lungs?').waitFor();
    await expect.poll(() => page.getByText('In the alveoli.').count()).toBe(0);
    await page.keyboard.press('Space');
    await page.getByText('In the alveoli.').waitFor();
    await app.shot(page, 'card-answer-shown');
    // Easy: a new card rated Good comes back within minutes, in this same session.
    await page.keyboard.press('4');
    await page.getByRole('heading', { name: 'All done for now' }).waitFor();
    await page.getByText('You reviewed 1 card in this session.').waitFor();

    // The rating reached the server: the deck has nothing due after a reload, and the
    // statistics count it (a new card: no learned card's retention to show yet).
    await page.goto(`${app.baseUrl}/app/flashcards`);
    await page.getByRole('link', { name: 'Review all due (0)' }).waitFor();
    await page.getByRole('link', { name: 'Statistics' }).click();
    await page.getByRole('heading', { level: 1, name: 'Flashcard statistics' }).waitFor();
    const perDay = page.getByRole('region', { name: 'Reviews per day' });
    // The day the server recorded the review (the learner's time zone is UTC), not the day
    // the test reads the page: run across midnight, the two differ.
    const review = await app.service
      .from('flashcard_reviews')
      .select('reviewed_at')
      .eq('user_id', learner.id)
      .single();
    expect(review.error).toBeNull();
    const today = new Intl.DateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'short',
      timeZone: 'UTC',
    }).format(new Date((review.data as { reviewed_at: string }).reviewed_at));
    await expect
      .poll(() => perDay.getByRole('row').nth(1).getByRole('cell').allTextContents())
      .toEqual([today, '1', '0']);
    await page.getByText('1 review on 1 of 182 days', { exact: false }).waitFor();
    await page.getByText('no reviews of learned cards yet').first().waitFor();
    await app.shot(page, 'flashcard-statistics');
    await page.context().close();
  });

  it('imports a CSV, skipping the line it cannot use, and exports the deck for Anki', async () => {
    const page = await app.signedInPage('desktop', learner.email, '/app/flashcards');
    await page.getByRole('link', { name: 'Respiration', exact: true }).click();
    const transfer = page.getByRole('region', { name: 'Import and export' });
    await transfer.getByLabel('Import cards from a file').setInputFiles({
      name: 'week-2.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        'front,back\r\nWhat is tidal volume?,About 500 ml at rest\r\n"Name the ""windpipe""",Trachea\r\nNo answer here,\r\n',
      ),
    });
    await transfer.getByText('2 cards ready to import; 1 line will be skipped').waitFor();
    await transfer.getByText('Line 4: the back is empty.').waitFor();
    await transfer.getByRole('button', { name: 'Import 2 cards' }).click();
    await page.getByText('2 cards imported into “Respiration”.').waitFor();
    await page.getByRole('region', { name: 'Cards' }).getByText('Name the "windpipe"').waitFor();

    const download = page.waitForEvent('download');
    await transfer.getByRole('button', { name: 'Export for Anki' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('respiration.txt');
    const text = fs.readFileSync((await file.path())!, 'utf8');
    const lines = text.split('\n');
    expect(lines.slice(0, 3)).toEqual(['#separator:tab', '#html:false', '#columns:Front\tBack']);
    // Cards imported in one statement share their creation time, so their order is not fixed.
    expect(lines.slice(3).sort()).toEqual(
      [
        'Where does gas exchange happen in the lungs?\tIn the alveoli.',
        'What is tidal volume?\tAbout 500 ml at rest',
        '"Name the ""windpipe"""\tTrachea',
        '',
      ].sort(),
    );

    await transfer.getByLabel('Import cards from a file').setInputFiles({
      name: 'deck.apkg',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('PK'),
    });
    await transfer.getByText(/“deck.apkg” is not a CSV/).waitFor();
    await page.context().close();
  });

  it('has no serious axe violations at 390 and 1280 px', async () => {
    await app.expectNoSeriousAxeViolations(learner.email, '/app/notes', 'notes', 'Notes');
    await app.expectNoSeriousAxeViolations(
      learner.email,
      '/app/flashcards',
      'flashcards',
      'Flashcards',
    );
    await app.expectNoSeriousAxeViolations(
      learner.email,
      '/app/flashcards/statistics',
      'flashcard-statistics',
      'Flashcard statistics',
    );
  });
});
