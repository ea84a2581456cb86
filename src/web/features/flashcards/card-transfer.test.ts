import { describe, expect, it } from 'vitest';
import {
  cardsToAnkiText,
  cardsToCsv,
  deckFileName,
  IMPORT_MAX_BYTES,
  parseCardFile,
  splitDelimited,
} from './card-transfer';

const parse = (name: string, text: string) => parseCardFile(name, text, text.length);

describe('deck files', () => {
  const cards = [
    { front: 'Where does gas exchange happen?', back: 'In the alveoli.' },
    { front: 'Name two "respiratory" muscles', back: 'Diaphragm,\nintercostals' },
    { front: '=SUM(A1) is a formula?', back: 'Tab\there' },
  ];

  it('round-trips cards through CSV, quotes, commas, line breaks and formula guards included', () => {
    const csv = cardsToCsv(cards);
    expect(csv.startsWith('front,back\r\n')).toBe(true);
    // The export guards the formula-like cell for spreadsheets; the import takes the guard off.
    expect(csv).toContain(`'=SUM(A1)`);
    expect(parse('deck.csv', csv)).toEqual({ format: 'csv', cards, skipped: [] });
  });

  it("round-trips cards through Anki's plain text format", () => {
    const text = cardsToAnkiText(cards);
    expect(text.split('\n').slice(0, 3)).toEqual([
      '#separator:tab',
      '#html:false',
      '#columns:Front\tBack',
    ]);
    expect(parse('deck.txt', text)).toEqual({ format: 'anki', cards, skipped: [] });
  });

  it('reads an Anki export with HTML fields, a named separator and a tags column', () => {
    const text = [
      '#separator:semicolon',
      '#html:true',
      '#tags column:3',
      'Capital of <b>France</b>;Paris<br>(since 987);geography',
      '"A; B";"&lt;tag&gt; &amp; more";',
    ].join('\n');
    expect(parse('export.txt', text).cards).toEqual([
      { front: 'Capital of France', back: 'Paris\n(since 987)' },
      { front: 'A; B', back: '<tag> & more' },
    ]);
  });

  it('skips what would make a broken card, saying which line and why', () => {
    const csv = 'front,back\nGood,Card\nNo back,\n,No front\nOnly one column\n\nAlso good,Yes\n';
    const parsed = parse('deck.csv', csv);
    expect(parsed.cards).toEqual([
      { front: 'Good', back: 'Card' },
      { front: 'Also good', back: 'Yes' },
    ]);
    expect(parsed.skipped).toEqual([
      'Line 3: the back is empty.',
      'Line 4: the front is empty.',
      'Line 5: one column; a card needs a front and a back.',
    ]);
  });

  it('counts lines inside quoted fields when it names a line', () => {
    const parsed = parse('deck.csv', '"two\nlines",back\nfront,\n');
    expect(parsed.skipped).toEqual(['Line 3: the back is empty.']);
    expect(() => splitDelimited('a,"never closed\nb', ',')).toThrow(
      'Line 1: a quoted field is never closed.',
    );
  });

  it('refuses a whole file it cannot read, with the reason', () => {
    expect(() => parse('deck.apkg', 'x')).toThrow(/not a CSV \(\.csv\) or Anki plain text/);
    expect(() => parseCardFile('deck.csv', 'a,b', IMPORT_MAX_BYTES + 1)).toThrow(
      /at most 5 MB can be imported/,
    );
    expect(() => parse('deck.csv', 'front,back\n')).toThrow('The file has no cards.');
    expect(() => parse('deck.csv', 'PK\u0003\u0004\u0000\u0000')).toThrow(/not text/);
    expect(() => parse('deck.csv', ',\nx,\n')).toThrow(
      'No card in the file could be read. Line 2: the back is empty.',
    );
    expect(() => parse('deck.txt', '#separator:nonsense\na\tb')).toThrow(
      'Line 1: the separator "nonsense" is not one Anki uses.',
    );
    const side = 'x'.repeat(20_001);
    expect(parse('deck.csv', `a,b\n${side},y\n`).skipped).toEqual([
      'Line 2: the front has 20,001 characters; at most 20,000.',
    ]);
  });

  it('names the download after the deck', () => {
    expect(deckFileName('Respiration — Week 1!', 'csv')).toBe('respiration-week-1.csv');
    expect(deckFileName('***', 'txt')).toBe('deck.txt');
  });
});
