import { describe, expect, it } from 'vitest';
import { DocumentPathError, parseDocumentPath } from './document-path';

describe('data room document paths', () => {
  it('accepts relative folder/name.md paths', () => {
    expect(parseDocumentPath('legal/bylaws.md')).toBe('legal/bylaws.md');
    expect(parseDocumentPath('due_diligence/master-readme.md')).toBe(
      'due_diligence/master-readme.md',
    );
  });

  it.each([
    '',
    '../legal/bylaws.md',
    'legal/../../etc/passwd',
    '/etc/passwd',
    'legal\\bylaws.md',
    'legal/bylaws.md\0.png',
    'legal/sub/bylaws.md',
    'Legal/Bylaws.md',
    'legal/bylaws.sql',
    `legal/${'a'.repeat(300)}.md`,
  ])('refuses %j', (path) => {
    expect(() => parseDocumentPath(path)).toThrow(DocumentPathError);
  });
});
