/**
 * CSV for spreadsheets: RFC 4180 quoting, and text that a spreadsheet would run as a formula
 * (OWASP "CSV injection": a cell starting with =, +, -, @, a tab or a carriage return) is
 * prefixed with an apostrophe, so a learner's name or a course title can never execute in the
 * admin's spreadsheet. Numbers stay numbers (a negative number is not text and is not guarded).
 */

export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: guarded when it is text that starts like a formula, quoted when it must be. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line of cells, with its CRLF: for writing a CSV a page of rows at a time. */
export function csvLine(row: readonly CsvValue[]): string {
  return row.map(csvCell).join(',') + '\r\n';
}

/** A header row and data rows, lines ended with CRLF as RFC 4180 has them. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map(csvLine).join('');
}
