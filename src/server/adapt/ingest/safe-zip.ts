/**
 * Reading an uploaded ZIP (SCORM package, DOCX) without trusting it. Threat model: the archive
 * comes from any educator and is unpacked in the worker's memory, never on disk. Before any
 * entry is inflated, the central directory is read and the archive refused when it
 *   - holds an absolute path, a drive letter, a backslash or a `..` segment (zip slip),
 *   - holds a symbolic link (Unix mode 120000 in the external attributes),
 *   - is encrypted,
 *   - declares more entries, more bytes in all, or a higher ratio per entry than the limits.
 * Inflation then writes into buffers of the declared sizes, so an entry that lies about its
 * size cannot grow past them (fflate does not resize a buffer it is given).
 */
import { unzipSync } from 'fflate';
import { IngestError, INGEST_LIMITS, megabytes } from './ingest-error';

export interface ZipEntryInfo {
  name: string;
  compressedSize: number;
  size: number;
  encrypted: boolean;
  symlink: boolean;
  directory: boolean;
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03;
}

function corrupt(what: string, reason: string): IngestError {
  return new IngestError('corrupt', `This ${what} is damaged: ${reason}.`);
}

/** The central directory's entries, checked against nothing yet. */
export function readZipDirectory(bytes: Uint8Array, what: string): ZipEntryInfo[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end record sits in the last 22 bytes plus a comment of at most 65,535.
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535); i--) {
    if (view.getUint32(i, true) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw corrupt(what, 'the ZIP archive has no central directory');
  const count = view.getUint16(eocd + 10, true);
  const offset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || offset === 0xffffffff) {
    throw new IngestError(
      'unsupported',
      `This ${what} is a ZIP64 archive; archives under 4 GB in the ordinary ZIP format can be read.`,
    );
  }
  if (count > INGEST_LIMITS.maxEntries) {
    throw new IngestError(
      'zip_bomb',
      `This ${what} holds ${count} files; up to ${INGEST_LIMITS.maxEntries} can be read.`,
    );
  }
  const entries: ZipEntryInfo[] = [];
  let at = offset;
  const decoder = new TextDecoder('utf-8', { fatal: false });
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL_SIGNATURE) {
      throw corrupt(what, 'its central directory is broken');
    }
    const madeBy = view.getUint16(at + 4, true) >> 8;
    const flags = view.getUint16(at + 8, true);
    const compressedSize = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const external = view.getUint32(at + 38, true);
    if (at + 46 + nameLength > bytes.length) throw corrupt(what, 'an entry name is cut off');
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    // Unix (3) and macOS (19) archivers keep the file mode in the upper 16 bits.
    const mode = madeBy === 3 || madeBy === 19 ? external >>> 16 : 0;
    entries.push({
      name,
      compressedSize,
      size,
      encrypted: (flags & 1) === 1,
      symlink: (mode & 0o170000) === 0o120000,
      directory: name.endsWith('/'),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The zip-slip check: a relative path of plain segments. */
export function unsafePathReason(name: string): string | null {
  if (name.includes('\\')) return 'uses a backslash';
  if (name.startsWith('/')) return 'is an absolute path';
  if (/^[a-zA-Z]:/.test(name)) return 'names a drive';
  if (name.includes('\u0000')) return 'holds a NUL character';
  if (name.split('/').some((segment) => segment === '..')) return 'climbs out with ".."';
  return null;
}

/** Checks every entry, then inflates the archive into memory. */
export function safeUnzip(bytes: Uint8Array, what: string): Record<string, Uint8Array> {
  const entries = readZipDirectory(bytes, what);
  let total = 0;
  for (const entry of entries) {
    const unsafe = unsafePathReason(entry.name);
    if (unsafe) {
      throw new IngestError(
        'unsafe_path',
        `This ${what} holds a file whose path ${unsafe} ("${entry.name.slice(0, 120)}"); such an archive could write outside its folder, so it is refused.`,
      );
    }
    if (entry.symlink) {
      throw new IngestError(
        'symlink',
        `This ${what} holds a symbolic link ("${entry.name.slice(0, 120)}"); archives with links are refused.`,
      );
    }
    if (entry.encrypted) {
      throw new IngestError(
        'encrypted',
        `This ${what} is password protected; upload it without a password.`,
      );
    }
    total += entry.size;
    if (total > INGEST_LIMITS.maxUnpackedBytes) {
      throw new IngestError(
        'zip_bomb',
        `This ${what} unpacks to more than ${megabytes(INGEST_LIMITS.maxUnpackedBytes)}; it is refused as a possible ZIP bomb.`,
      );
    }
    if (
      entry.size > INGEST_LIMITS.ratioExemptBytes &&
      entry.size > entry.compressedSize * INGEST_LIMITS.maxRatio
    ) {
      throw new IngestError(
        'zip_bomb',
        `"${entry.name.slice(0, 120)}" in this ${what} inflates ${Math.round(entry.size / Math.max(1, entry.compressedSize))} times (${megabytes(entry.size)}); more than ${INGEST_LIMITS.maxRatio} times is refused as a possible ZIP bomb.`,
      );
    }
  }
  try {
    return unzipSync(bytes, { filter: (file) => !file.name.endsWith('/') });
  } catch (error) {
    throw corrupt(what, `the ZIP archive cannot be unpacked (${(error as Error).message})`);
  }
}
