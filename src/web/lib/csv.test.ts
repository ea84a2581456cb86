import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv';

describe('csvCell', () => {
  it('quotes commas, quotes and line breaks, doubling quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('Smith, Ada')).toBe('"Smith, Ada"');
    expect(csvCell('The "lungs"')).toBe('"The ""lungs"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
  });

  it('guards text that a spreadsheet would run as a formula', () => {
    expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe(
      '"\'=HYPERLINK(""http://evil.example"",""x"")"',
    );
    expect(csvCell('+1+2')).toBe("'+1+2");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('\r=1')).toBe('"\'\r=1"');
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('keeps numbers as numbers and empties missing values', () => {
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(87.5)).toBe('87.5');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(true)).toBe('true');
  });
});

describe('toCsv', () => {
  it('writes a header and rows with CRLF line ends', () => {
    expect(
      toCsv(
        ['Learner', 'Score'],
        [
          ['Ada', 90],
          ['=cmd', null],
        ],
      ),
    ).toBe("Learner,Score\r\nAda,90\r\n'=cmd,\r\n");
  });
});
