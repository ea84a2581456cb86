/**
 * CSV for spreadsheets (src/common/csv.ts, shared with the server's exports) and the
 * browser's download of it.
 */
import { downloadText } from './download';

export { csvCell, toCsv, type CsvValue } from '@common/csv';

/**
 * Offers the CSV as a download. The byte-order mark makes spreadsheet programs read the file as
 * UTF-8, so names with accents survive.
 */
export function downloadCsv(filename: string, csv: string): void {
  downloadText(filename, '\uFEFF' + csv, 'text/csv;charset=utf-8');
}
