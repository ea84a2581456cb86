/**
 * Document paths are relative, folder-based object names such as `legal/bylaws.md`. Anything
 * else (traversal, absolute paths, other characters) is refused before it reaches a lookup.
 */
const DOCUMENT_PATH = /^[a-z0-9_]+\/[a-z0-9][a-z0-9._-]*\.md$/;

export class DocumentPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DocumentPathError';
  }
}

export function parseDocumentPath(raw: string): string {
  if (raw.length === 0) throw new DocumentPathError('A document path is required.');
  if (raw.length > 200) throw new DocumentPathError('The document path is too long.');
  if (raw.includes('..') || raw.startsWith('/') || raw.includes('\\') || raw.includes('\0')) {
    throw new DocumentPathError('The document path must be relative and must not contain "..".');
  }
  if (!DOCUMENT_PATH.test(raw)) {
    throw new DocumentPathError(
      'The document path must look like "folder/name.md" (lower-case letters, digits, "-", "_", ".").',
    );
  }
  return raw;
}
