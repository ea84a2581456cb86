import { describe, expect, it } from 'vitest';
import { isBlankRecord, parseCsv } from './csv';

describe('parseCsv', () => {
  it('reads plain and quoted fields with their line numbers', () => {
    const result = parseCsv(
      '\uFEFFemail,course\r\na@x.edu,"algebra, part 1"\n"b@x.edu","say ""hi"""\n',
    );
    expect(result.error).toBeUndefined();
    expect(result.records).toEqual([
      { line: 1, fields: ['email', 'course'] },
      { line: 2, fields: ['a@x.edu', 'algebra, part 1'] },
      { line: 3, fields: ['b@x.edu', 'say "hi"'] },
    ]);
  });

  it('counts the lines inside a quoted field, so later records keep their real line', () => {
    const result = parseCsv('a,"two\nlines"\nb,c');
    expect(result.records).toEqual([
      { line: 1, fields: ['a', 'two\nlines'] },
      { line: 3, fields: ['b', 'c'] },
    ]);
  });

  it('keeps empty fields and marks blank lines', () => {
    const result = parseCsv('a,,c\n\n,,\n');
    expect(result.records.map((r) => r.fields)).toEqual([['a', '', 'c'], [''], ['', '', '']]);
    expect(result.records.map(isBlankRecord)).toEqual([false, true, true]);
  });

  it('stops at a quote that is never closed and names its line', () => {
    const result = parseCsv('email,course\na@x.edu,algebra\n"b@x.edu,algebra\nc@x.edu,x');
    expect(result.records).toHaveLength(2);
    expect(result.error).toEqual({
      line: 3,
      message: 'A quoted field is never closed (a " is missing).',
    });
  });

  it('refuses text after a closing quote and a quote inside a bare field', () => {
    expect(parseCsv('a,"b"c\n').error).toMatchObject({ line: 1 });
    expect(parseCsv('a\nb"c,d\n').error).toMatchObject({
      line: 2,
      message: 'A quote in the middle of a field; put the whole field in quotes.',
    });
  });
});
