/**
 * A strict RFC 4180 reader for uploaded CSV files: comma-separated, optional double quotes
 * (a quote inside a quoted field is written twice), CRLF or LF line ends, an optional UTF-8
 * byte-order mark. It never throws: a quote that is never closed, or text after a closing
 * quote, ends the reading with the line it happened on, so the caller can report it.
 */

export interface CsvRecord {
  /** The line the record starts on, from 1. */
  line: number;
  fields: string[];
}

export interface CsvResult {
  records: CsvRecord[];
  /** Set when the file could not be read to its end. */
  error?: { line: number; message: string };
}

export function parseCsv(text: string): CsvResult {
  const input = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let line = 1;
  let index = 0;
  while (index < input.length) {
    const start = line;
    const fields: string[] = [];
    let field = '';
    let atRecordEnd = false;
    while (!atRecordEnd) {
      if (input[index] === '"') {
        index += 1;
        let closed = false;
        while (index < input.length) {
          const ch = input[index]!;
          if (ch === '"') {
            if (input[index + 1] === '"') {
              field += '"';
              index += 2;
              continue;
            }
            index += 1;
            closed = true;
            break;
          }
          if (ch === '\n') line += 1;
          field += ch;
          index += 1;
        }
        if (!closed) {
          return {
            records,
            error: { line: start, message: 'A quoted field is never closed (a " is missing).' },
          };
        }
        const next = input[index];
        if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
          return {
            records,
            error: {
              line,
              message: 'Text follows a closing quote; write a quote inside a quoted field as "".',
            },
          };
        }
      } else {
        while (index < input.length && !',\r\n'.includes(input[index]!)) {
          if (input[index] === '"') {
            return {
              records,
              error: {
                line,
                message: 'A quote in the middle of a field; put the whole field in quotes.',
              },
            };
          }
          field += input[index];
          index += 1;
        }
      }
      const sep = input[index];
      if (sep === ',') {
        fields.push(field);
        field = '';
        index += 1;
        continue;
      }
      fields.push(field);
      atRecordEnd = true;
      if (sep === '\r') index += 1;
      if (input[index] === '\n') index += 1;
      if (sep !== undefined) line += 1;
    }
    records.push({ line: start, fields });
  }
  return { records };
}

/** A record with nothing in it (a blank line, or only commas and spaces). */
export function isBlankRecord(record: CsvRecord): boolean {
  return record.fields.every((field) => field.trim() === '');
}
