import { describe, expect, it } from 'vitest';
import { loginPathFor, safeNextPath } from './safe-next-path';

const origin = 'https://lyceum.example';

describe('safeNextPath', () => {
  it.each([
    ['/app', '/app'],
    ['/app/courses?q=cell&page=2', '/app/courses?q=cell&page=2'],
    [
      '/app/courses/3f1c2a9e-0d7b-4c55-9a51-2b8e6f0c1d23#discussion',
      '/app/courses/3f1c2a9e-0d7b-4c55-9a51-2b8e6f0c1d23#discussion',
    ],
    ['/app/../account', '/account'],
  ])('keeps the same-origin path %s', (value, expected) => {
    expect(safeNextPath(value, origin)).toBe(expected);
  });

  it.each([
    ['nothing', null],
    ['an empty value', ''],
    ['another origin', 'https://evil.example/app'],
    ['a protocol-relative address', '//evil.example/app'],
    ['a backslash host', '/\\evil.example'],
    ['a script address', 'javascript:alert(1)'],
    ['a relative path', 'app/courses'],
    ['a tab hiding a second slash', '/\t/evil.example'],
    ['an over-long value', `/${'a'.repeat(2048)}`],
  ])('refuses %s', (_label, value) => {
    expect(safeNextPath(value, origin)).toBeUndefined();
  });

  it('builds a sign-in address that round-trips through the query string', () => {
    const target = '/app/courses?q=a&b=c';
    const next = new URL(loginPathFor(target), origin).searchParams.get('next');
    expect(safeNextPath(next, origin)).toBe(target);
  });
});
