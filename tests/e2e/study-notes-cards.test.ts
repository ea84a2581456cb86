/**
 * Notes and flashcards in headless Chromium (decisions 0160, 0161): a learner writes a note that
 * saves itself and finds it by search, makes a deck and a card from the note, and reviews it by
 * keyboard until nothing is due; axe at 390 and 1280 px on both screens.
 */
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

    // The rating reached the server: the deck has nothing due after a reload.
    await page.goto(`${app.baseUrl}/app/flashcards`);
    await page.getByRole('link', { name: 'Review all due (0)' }).waitFor();
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
  });
});
