import { describe, expect, it } from 'vitest';
import { StorageError } from './errors';
import { checkObjectKey, mimeTypeAllowed, parseSizeLimit, splitBucketAndKey } from './paths';

describe('object keys', () => {
  it('accepts ordinary and unicode paths', () => {
    for (const key of ['a.txt', 'folder/sub/file name (1).pdf', 'résumé/日本.md', 'a..b/c'])
      expect(checkObjectKey(key)).toBe(key);
  });

  it('refuses anything that reads as a file-system path', () => {
    for (const key of [
      '',
      '../x',
      'a/../b',
      './a',
      '/etc/passwd',
      'a//b',
      'a/',
      'a\\b',
      'nul\0',
      'x'.repeat(1025),
    ])
      expect(() => checkObjectKey(key), JSON.stringify(key)).toThrow(StorageError);
  });

  it('decodes each URL segment before checking it', () => {
    expect(splitBucketAndKey('docs/a%20b/c.txt')).toEqual({ bucket: 'docs', key: 'a b/c.txt' });
    expect(() => splitBucketAndKey('docs/..%2Fsecret')).toThrow(/"\." and "\.\." segments/);
    expect(() => splitBucketAndKey('docs/%E0%A4%A')).toThrow(/percent-encoding/);
    expect(() => splitBucketAndKey('..%2F/x')).toThrow(/Bucket name invalid/);
  });
});

describe('bucket settings', () => {
  it('matches exact and wildcard MIME types', () => {
    expect(mimeTypeAllowed('image/png', ['image/*'])).toBe(true);
    expect(mimeTypeAllowed('text/plain;charset=UTF-8', ['text/plain'])).toBe(true);
    expect(mimeTypeAllowed('application/pdf', ['image/*', 'text/plain'])).toBe(false);
    expect(mimeTypeAllowed('anything/else', null)).toBe(true);
  });

  it('parses size limits as Supabase does', () => {
    // Decimal units, as Supabase Storage reads them.
    expect(parseSizeLimit('20MB')).toBe(20_000_000);
    expect(parseSizeLimit('20mb')).toBe(20_000_000);
    expect(parseSizeLimit('1kb')).toBe(1000);
    expect(parseSizeLimit('1.5GB')).toBe(1_500_000_000);
    expect(parseSizeLimit('3B')).toBe(3);
    // Three significant digits, then the unit.
    expect(parseSizeLimit('1.2345MB')).toBe(1_230_000);
    // A unit is required in a string, with nothing between it and the number.
    expect(() => parseSizeLimit('1000')).toThrow(/Invalid file size/);
    expect(() => parseSizeLimit('20 MB')).toThrow(/Invalid file size/);
    expect(() => parseSizeLimit('20MiB')).toThrow(/Invalid file size/);
    expect(() => parseSizeLimit('0kb')).toThrow(/Invalid file size/);
    expect(parseSizeLimit(500)).toBe(500);
    expect(parseSizeLimit(null)).toBeNull();
    expect(() => parseSizeLimit('lots')).toThrow(/Invalid file size/);
    expect(() => parseSizeLimit(-1)).toThrow(StorageError);
  });
});
