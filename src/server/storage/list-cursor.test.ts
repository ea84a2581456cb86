import { describe, expect, it } from 'vitest';
import { StorageError } from './errors';
import { decodeListCursor, encodeListCursor } from './list-cursor';

describe('list-v2 cursors', () => {
  it('round-trips in Supabase Storage’s format', () => {
    const byName = { startAfter: 'docs/ünï code.txt', order: 'desc', column: 'name' } as const;
    expect(decodeListCursor(encodeListCursor(byName))).toEqual(byName);
    const byTime = {
      startAfter: 'a/',
      order: 'asc',
      column: 'created_at',
      after: '2026-01-01T00:00:00.123Z',
    } as const;
    const token = encodeListCursor(byTime);
    expect(Buffer.from(token, 'base64').toString()).toBe(
      'l:a/\no:asc\nc:created_at\na:2026-01-01T00:00:00.123Z',
    );
    expect(decodeListCursor(token)).toEqual(byTime);
    // Upstream leaves order and column out when they are the defaults.
    expect(decodeListCursor(Buffer.from('l:x.txt').toString('base64'))).toEqual({
      startAfter: 'x.txt',
      order: 'asc',
      column: 'name',
    });
  });

  it('refuses anything else as InvalidParameter', () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    for (const token of [
      '',
      '!!!',
      b64('x:1'),
      b64('o:asc'),
      b64('l:a\nc:size'),
      b64('l:a\no:up'),
      b64('l:a\nc:updated_at'),
      b64('l:a\nc:updated_at\na:2026-13-45T99:00:00Z'),
      b64("l:a\nc:created_at\na:1'; drop table x; --"),
    ]) {
      expect(() => decodeListCursor(token)).toThrow(StorageError);
      expect(() => decodeListCursor(token)).toThrow(/^Invalid Parameter continuation token: /);
    }
  });
});
