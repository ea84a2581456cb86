/**
 * Decks in and out as files (decision 0162): CSV with a `front,back` header, and Anki's "Notes in
 * Plain Text" format (`#separator:tab`, `#html:…` and `#columns:…` headers, fields quoted with
 * double quotes when they hold the separator, a quote or a line break). Parsing is strict about
 * what would lose a card (an unclosed quote, an empty side, a side over the limit) and says which
 * line; extra columns such as Anki's tags are ignored.
 */
import { toCsv } from '@/lib/csv';
import { CARD_SIDE_MAX, type CardSides } from './card-sides';

export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_CARDS = 10_000;

export type CardFileFormat = 'csv' | 'anki';

export interface ParsedCardFile {
  format: CardFileFormat;
  cards: CardSides[];
  /** What was skipped and why, by line of the file ("Line 4: the back is empty."). */
  skipped: string[];
}

/** The format a file's name says: `.csv` is CSV, `.txt` and `.tsv` are Anki's plain text. */
export function formatOf(fileName: string): CardFileFormat | null {
  const extension = fileName.toLowerCase().split('.').pop();
  if (extension === 'csv') return 'csv';
  if (extension === 'txt' || extension === 'tsv') return 'anki';
  return null;
}

interface Row {
  line: number;
  fields: string[];
}

/**
 * Splits delimited text into rows of fields, honouring double-quoted fields with doubled quotes
 * and line breaks inside. Throws with the line number when a quote is never closed.
 */
export function splitDelimited(text: string, separator: string, firstLine = 1): Row[] {
  const rows: Row[] = [];
  let fields: string[] = [];
  let field = '';
  let line = firstLine;
  let rowLine = firstLine;
  let quoted = false;
  let quoteLine = 0;
  let atFieldStart = true;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (char === '\n') line++;
        field += char;
      }
      continue;
    }
    if (char === '"' && atFieldStart) {
      quoted = true;
      quoteLine = line;
      atFieldStart = false;
    } else if (char === separator) {
      fields.push(field);
      field = '';
      atFieldStart = true;
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      fields.push(field);
      rows.push({ line: rowLine, fields });
      fields = [];
      field = '';
      atFieldStart = true;
      line++;
      rowLine = line;
    } else {
      field += char;
      atFieldStart = false;
    }
  }
  if (quoted) throw new Error(`Line ${quoteLine}: a quoted field is never closed.`);
  if (field !== '' || fields.length > 0) {
    fields.push(field);
    rows.push({ line: rowLine, fields });
  }
  return rows;
}

// Our own CSV export guards text that starts like a spreadsheet formula with an apostrophe
// (src/common/csv.ts); reading it back removes exactly that guard.
const GUARDED_FORMULA = /^'(?=[=+\-@\t\r])/;

const ANKI_SEPARATORS: Record<string, string> = {
  tab: '\t',
  comma: ',',
  semicolon: ';',
  pipe: '|',
  colon: ':',
  space: ' ',
};

/** Anki's HTML fields as Markdown text: line breaks kept, tags dropped, entities decoded. */
function ankiHtmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(div|p)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n');
}

function checkedCard(row: Row, front: string, back: string, skipped: string[]): CardSides | null {
  const sides = { front: front.trim(), back: back.trim() };
  for (const side of ['front', 'back'] as const) {
    if (!sides[side]) {
      skipped.push(`Line ${row.line}: the ${side} is empty.`);
      return null;
    }
    if (sides[side].length > CARD_SIDE_MAX) {
      skipped.push(
        `Line ${row.line}: the ${side} has ${sides[side].length.toLocaleString('en-GB')} characters; at most ${CARD_SIDE_MAX.toLocaleString('en-GB')}.`,
      );
      return null;
    }
  }
  return sides;
}

function isBlank(row: Row): boolean {
  return row.fields.every((field) => field.trim() === '');
}

function parseCsv(text: string): ParsedCardFile {
  const rows = splitDelimited(text, ',');
  const skipped: string[] = [];
  const cards: CardSides[] = [];
  const first = rows[0]?.fields.map((field) => field.trim().toLowerCase());
  const body = first?.[0] === 'front' && first[1] === 'back' ? rows.slice(1) : rows;
  for (const row of body) {
    if (isBlank(row)) continue;
    if (row.fields.length < 2) {
      skipped.push(`Line ${row.line}: one column; a card needs a front and a back.`);
      continue;
    }
    const [front, back] = row.fields.map((field) => field.replace(GUARDED_FORMULA, ''));
    const card = checkedCard(row, front!, back!, skipped);
    if (card) cards.push(card);
  }
  return { format: 'csv', cards, skipped };
}

function parseAnki(text: string): ParsedCardFile {
  const lines = text.split(/\r?\n/);
  let separator = '\t';
  let html = false;
  let headerLines = 0;
  while (headerLines < lines.length && lines[headerLines]!.startsWith('#')) {
    const [key, value = ''] = lines[headerLines]!.slice(1).split(':', 2);
    if (key === 'separator') {
      const named = ANKI_SEPARATORS[value.toLowerCase()];
      if (!named && value.length !== 1)
        throw new Error(`Line ${headerLines + 1}: the separator "${value}" is not one Anki uses.`);
      separator = named ?? value;
    } else if (key === 'html') html = value === 'true';
    headerLines++;
  }
  const rows = splitDelimited(lines.slice(headerLines).join('\n'), separator, headerLines + 1);
  const skipped: string[] = [];
  const cards: CardSides[] = [];
  for (const row of rows) {
    if (isBlank(row)) continue;
    if (row.fields.length < 2) {
      skipped.push(`Line ${row.line}: one field; a card needs a front and a back.`);
      continue;
    }
    const [front, back] = html ? row.fields.map(ankiHtmlToText) : row.fields;
    const card = checkedCard(row, front!, back!, skipped);
    if (card) cards.push(card);
  }
  return { format: 'anki', cards, skipped };
}

/**
 * Reads a deck file. Throws an Error whose message is for the learner when the file as a whole
 * cannot be read (unknown type, too large, no cards at all, an unclosed quote).
 */
export function parseCardFile(fileName: string, text: string, bytes: number): ParsedCardFile {
  const format = formatOf(fileName);
  if (!format)
    throw new Error(
      `“${fileName}” is not a CSV (.csv) or Anki plain text (.txt) file. Export the deck from Anki as “Notes in Plain Text”.`,
    );
  if (bytes > IMPORT_MAX_BYTES)
    throw new Error(
      `The file is ${(bytes / 1024 / 1024).toFixed(1)} MB; at most ${IMPORT_MAX_BYTES / 1024 / 1024} MB can be imported at once.`,
    );
  if (text.includes('\u0000'))
    throw new Error('The file is not text (it holds binary data). Choose a CSV or .txt file.');
  const clean = text.replace(/^\uFEFF/, '');
  const parsed = format === 'csv' ? parseCsv(clean) : parseAnki(clean);
  if (parsed.cards.length === 0)
    throw new Error(
      parsed.skipped.length > 0
        ? `No card in the file could be read. ${parsed.skipped.slice(0, 3).join(' ')}`
        : 'The file has no cards.',
    );
  if (parsed.cards.length > IMPORT_MAX_CARDS)
    throw new Error(
      `The file has ${parsed.cards.length.toLocaleString('en-GB')} cards; at most ${IMPORT_MAX_CARDS.toLocaleString('en-GB')} can be imported at once.`,
    );
  return parsed;
}

export function cardsToCsv(cards: readonly CardSides[]): string {
  return toCsv(
    ['front', 'back'],
    cards.map((card) => [card.front, card.back]),
  );
}

function ankiField(text: string): string {
  return /[\t\n\r"]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Anki's "Notes in Plain Text" with a Basic note type's two fields, ready for File › Import. */
export function cardsToAnkiText(cards: readonly CardSides[]): string {
  const header = ['#separator:tab', '#html:false', '#columns:Front\tBack'];
  const rows = cards.map((card) => `${ankiField(card.front)}\t${ankiField(card.back)}`);
  return [...header, ...rows].join('\n') + '\n';
}

/** A file name from a deck's name: letters, digits and dashes only. */
export function deckFileName(deckName: string, extension: 'csv' | 'txt'): string {
  const base =
    deckName
      .normalize('NFKD')
      .replace(/[^\w\s-]/g, '')
      .trim()
      .replace(/\s+/g, '-')
      .toLowerCase() || 'deck';
  return `${base.slice(0, 60)}.${extension}`;
}
