import { describe, expect, it } from 'vitest';
import { strFromU8, strToU8, zipSync } from 'fflate';
import { archiveLoader, drmProtected, EpubOpenError, unpackEpub } from './epub-archive';

const container =
  '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>';
const opf =
  '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata/><manifest><item id="one" href="one.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="one"/></spine></package>';

function epub(extra: Record<string, string> = {}, omit: string[] = []): Uint8Array {
  const files: Record<string, Uint8Array> = {
    mimetype: strToU8('application/epub+zip'),
    'META-INF/container.xml': strToU8(container),
    'OEBPS/content.opf': strToU8(opf),
    'OEBPS/one.xhtml': strToU8(
      '<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Hi</p></body></html>',
    ),
  };
  for (const name of omit) delete files[name];
  for (const [name, text] of Object.entries(extra)) files[name] = strToU8(text);
  return zipSync(files);
}

const encryption = (algorithm: string, uri: string) =>
  `<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:EncryptionMethod Algorithm="${algorithm}"/><enc:CipherData><enc:CipherReference URI="${uri}"/></enc:CipherData></enc:EncryptedData></encryption>`;

function refusal(bytes: Uint8Array): EpubOpenError {
  try {
    unpackEpub(bytes);
  } catch (error) {
    if (error instanceof EpubOpenError) return error;
    throw error;
  }
  throw new Error('the file was accepted');
}

describe('unpackEpub', () => {
  it('opens a well-formed book and serves its files to foliate', async () => {
    const loader = archiveLoader(unpackEpub(epub()));
    expect(await loader.loadText('OEBPS/content.opf')).toContain('<spine>');
    expect(await loader.loadText('META-INF/encryption.xml')).toBeNull();
    const blob = await loader.loadBlob('OEBPS/one.xhtml', 'application/xhtml+xml');
    expect(blob?.type).toBe('application/xhtml+xml');
    expect(strFromU8(new Uint8Array(await blob!.arrayBuffer()))).toContain('<p>Hi</p>');
    expect(loader.getSize('OEBPS/one.xhtml')).toBeGreaterThan(0);
    expect(loader.getSize('OEBPS/missing.xhtml')).toBe(0);
  });

  it('finds a file whose name the book wrote percent-encoded', async () => {
    const files = unpackEpub(epub({ 'OEBPS/chapter one.xhtml': '<html/>' }));
    expect(await archiveLoader(files).loadText('OEBPS/chapter%20one.xhtml')).toBe('<html/>');
  });

  it('says a file that is not a ZIP is not an ePub', () => {
    const error = refusal(strToU8('%PDF-1.7 not a book'));
    expect(error.code).toBe('not_epub');
    expect(error.message).toMatch(/not an ePub/);
  });

  it('says a broken archive is damaged', () => {
    const error = refusal(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5, 6]));
    expect(error.code).toBe('corrupt');
    expect(error.message).toMatch(/damaged/);
  });

  it('says which part of the book is missing', () => {
    expect(refusal(epub({}, ['META-INF/container.xml'])).message).toMatch(
      /container\.xml is missing/,
    );
    expect(refusal(epub({}, ['OEBPS/content.opf'])).message).toMatch(/package document/);
  });

  it('refuses a book whose chapters are encrypted (DRM)', () => {
    const error = refusal(
      epub({
        'META-INF/encryption.xml': encryption(
          'http://www.w3.org/2001/04/xmlenc#aes128-cbc',
          'OEBPS/one.xhtml',
        ),
      }),
    );
    expect(error.code).toBe('encrypted');
    expect(error.message).toMatch(/DRM/);
  });

  it('opens a book whose only "encryption" is font obfuscation', () => {
    const files = unpackEpub(
      epub({
        'META-INF/encryption.xml': encryption(
          'http://www.idpf.org/2008/embedding',
          'OEBPS/font.otf',
        ),
      }),
    );
    expect(files.has('OEBPS/one.xhtml')).toBe(true);
  });
});

describe('drmProtected', () => {
  it('lists entries without an algorithm as protected', () => {
    const xml = strToU8(
      '<encryption><EncryptedData><CipherData><CipherReference URI="a.xhtml"/></CipherData></EncryptedData></encryption>',
    );
    expect(drmProtected(xml)).toEqual(['a.xhtml']);
    expect(drmProtected(undefined)).toEqual([]);
  });
});
