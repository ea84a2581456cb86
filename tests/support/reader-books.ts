/**
 * ePub files the reader's browser test opens, made here with the samples' own EPUB builder
 * (scripts/library-samples.ts, fflate): a book long enough to turn pages, with a word found in
 * two places of one chapter; the same book with a script and an event handler in a chapter
 * (which must never run); and one whose chapters are listed as encrypted (DRM).
 */
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { bookEpub, type Book, type Chapter } from '../../scripts/library-samples';

/** The word the test finds: in chapter 2 only, twice. */
export const FIND_WORD = 'quetzalcoatlus';

function chapter(title: string, topic: string, extra: string[] = []): Chapter {
  const paragraphs = Array.from(
    { length: 24 },
    (_, i) =>
      `${topic} paragraph ${i + 1}. Pterosaurs were flying reptiles of the Mesozoic; their wings were membranes of skin stretched from a long fourth finger to the hind limbs, and their bones were hollow and light.`,
  );
  paragraphs.splice(6, 0, ...extra);
  return {
    title,
    blocks: paragraphs.map((text) => ({ kind: 'paragraph' as const, text })),
  };
}

export const readerBook: Book = {
  title: 'Pterosaurs: a reader',
  subtitle: 'A test book for the ePub reader',
  identifier: 'urn:uuid:0b7d4c2e-1f0a-4c8e-9d55-7a1c0e7b2a10',
  chapters: [
    chapter('Origins', 'Origins'),
    chapter('Giants of the air', 'Giants', [
      `The largest of them, ${FIND_WORD} northropi, stood as tall as a giraffe.`,
      `Whether ${FIND_WORD} could fly far is still argued over.`,
    ]),
    chapter('Extinction', 'Extinction'),
  ],
};

export function readerEpub(): Uint8Array {
  return bookEpub(readerBook);
}

/** The reader book with a script element and an onload handler in its first chapter. */
export function scriptedEpub(): Uint8Array {
  const files = unzipSync(readerEpub());
  const name = 'OEBPS/chapter-1.xhtml';
  files[name] = strToU8(
    strFromU8(files[name]!)
      .replace(
        '</head>',
        '<script>window.parent.document.title = "book script ran"; localStorage.setItem("book-script", "ran");</script></head>',
      )
      .replace('<body>', '<body onload="window.parent.document.title = \'book handler ran\'">'),
  );
  return zip(files);
}

/** The reader book with its chapters listed as encrypted with AES: DRM. */
export function drmEpub(): Uint8Array {
  const files = unzipSync(readerEpub());
  const chapters = Object.keys(files).filter((name) => /chapter-\d+\.xhtml$/.test(name));
  files['META-INF/encryption.xml'] = strToU8(
    `<?xml version="1.0"?><encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">${chapters
      .map(
        (uri) =>
          `<enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/><enc:CipherData><enc:CipherReference URI="${uri}"/></enc:CipherData></enc:EncryptedData>`,
      )
      .join('')}</encryption>`,
  );
  return zip(files);
}

function zip(files: Record<string, Uint8Array>): Uint8Array {
  const { mimetype, ...rest } = files;
  return zipSync({ mimetype: [mimetype!, { level: 0 }], ...rest });
}
