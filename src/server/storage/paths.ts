import { storageErrors } from './errors';

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

const BUCKET_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
const MAX_KEY_BYTES = 1024;

export function checkBucketName(name: unknown): string {
  if (typeof name !== 'string' || !BUCKET_NAME.test(name) || name.includes('..'))
    throw storageErrors.invalidBucketName(String(name));
  return name;
}

/**
 * An object key as Supabase accepts it, minus everything that could be read as a file-system
 * path. Bytes are stored under generated ids, so this guards names shown to users and used in
 * policies (`storage.foldername`), not the disk.
 */
export function checkObjectKey(key: unknown): string {
  if (typeof key !== 'string' || key.length === 0)
    throw storageErrors.invalidKey('', 'the object path is empty');
  if (Buffer.byteLength(key) > MAX_KEY_BYTES)
    throw storageErrors.invalidKey(key, `longer than ${MAX_KEY_BYTES} bytes`);
  if (CONTROL_CHARS.test(key))
    throw storageErrors.invalidKey(key, 'control characters are not allowed');
  if (key.includes('\\')) throw storageErrors.invalidKey(key, 'backslashes are not allowed');
  if (key.startsWith('/')) throw storageErrors.invalidKey(key, 'absolute paths are not allowed');
  const segments = key.split('/');
  if (segments.some((segment) => segment === ''))
    throw storageErrors.invalidKey(key, 'empty path segments are not allowed');
  if (segments.some((segment) => segment === '.' || segment === '..'))
    throw storageErrors.invalidKey(key, '"." and ".." segments are not allowed');
  return key;
}

/**
 * Splits the part of a URL path after a route prefix into bucket and key. Each segment is
 * percent-decoded on its own, so an encoded "%2F" or "%2E%2E" is checked like a literal one.
 */
export function splitBucketAndKey(rawRest: string): { bucket: string; key: string } {
  const segments = rawRest.split('/').map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      throw storageErrors.invalidKey(segment, 'malformed percent-encoding');
    }
  });
  const [bucket = '', ...keyParts] = segments;
  return { bucket: checkBucketName(bucket), key: checkObjectKey(keyParts.join('/')) };
}

/** A bucket name taken from a URL segment. */
export function bucketFromSegment(raw: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    throw storageErrors.invalidBucketName(raw);
  }
  return checkBucketName(decoded);
}

/** Whether `mimeType` matches a bucket's allowed list ("image/png", "image/*", "*\/*"). */
export function mimeTypeAllowed(mimeType: string, allowed: readonly string[] | null): boolean {
  if (!allowed || allowed.length === 0) return true;
  const type = mimeType.split(';')[0]!.trim().toLowerCase();
  return allowed.some((pattern) => {
    const p = pattern.trim().toLowerCase();
    if (p === '*/*' || p === '*') return true;
    if (p.endsWith('/*')) return type.startsWith(p.slice(0, -1));
    return p === type;
  });
}

/** Supabase accepts a byte count or a string such as "20MB", "512KB", "3B". */
export function parseSizeLimit(value: unknown): number | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value <= 0)
      throw storageErrors.invalidRequest(
        'file_size_limit must be a positive whole number of bytes',
      );
    return value;
  }
  if (typeof value === 'string') {
    // Supabase Storage's reading: a number and a unit with nothing between them, decimal units
    // ("20mb" is 20,000,000 bytes), the number rounded to three significant digits.
    const match = /^(\d+(?:\.\d+)?)(gb|mb|kb|b)$/i.exec(value);
    if (match) {
      const units: Record<string, number> = { b: 1, kb: 1e3, mb: 1e6, gb: 1e9 };
      const amount = Number(Number.parseFloat(match[1]!).toPrecision(3));
      const bytes = Math.round(amount * units[match[2]!.toLowerCase()]!);
      if (bytes > 0) return bytes;
    }
  }
  throw storageErrors.invalidRequest('Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B');
}
