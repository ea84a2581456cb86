/**
 * CSV for spreadsheets (src/common/csv.ts, shared with the server's exports) and the
 * browser's download of it.
 */
export { csvCell, toCsv, type CsvValue } from '@common/csv';

/**
 * Offers the text as a download. The byte-order mark makes spreadsheet programs read the file
 * as UTF-8, so names with accents survive.
 */
export function downloadCsv(filename: string, csv: string): void {
  const blob = new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the object URL by now; a tick later it can go.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
