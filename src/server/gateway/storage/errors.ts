/**
 * Errors in Supabase Storage's shape, `{statusCode, code, error, message}`. storage-js reads
 * `message` and takes `statusCode` and `code` from the body. Unlike Supabase (which answers
 * most 4xx with HTTP 400), the HTTP status here equals `statusCode`: see decision 0020.
 */
export class StorageError extends Error {
  constructor(
    public readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 416 | 500 | 503,
    public readonly code: string,
    message: string,
    public readonly error: string = code,
  ) {
    super(message);
    this.name = 'StorageError';
  }

  toBody() {
    return {
      statusCode: String(this.status),
      code: this.code,
      error: this.error,
      message: this.message,
    };
  }
}

export const storageErrors = {
  noSuchBucket: () => new StorageError(404, 'NoSuchBucket', 'Bucket not found', 'Bucket not found'),
  noSuchKey: () => new StorageError(404, 'NoSuchKey', 'Object not found', 'not_found'),
  invalidKey: (key: string, why: string) =>
    new StorageError(400, 'InvalidKey', `Invalid key: ${printable(key)} (${why})`),
  invalidBucketName: (name: string) =>
    new StorageError(
      400,
      'InvalidBucketName',
      `Bucket name invalid: ${printable(name)}. Use 1-100 letters, digits, "-", "_" or ".", starting with a letter or digit.`,
      'Invalid Input',
    ),
  invalidRequest: (message: string) => new StorageError(400, 'InvalidRequest', message),
  invalidJwt: (message = 'Invalid JWT') => new StorageError(400, 'InvalidJWT', message),
  missingJwt: () =>
    new StorageError(400, 'InvalidJWT', 'No API key or Authorization header found in request'),
  invalidSignature: (message = 'Invalid signature') =>
    new StorageError(400, 'InvalidSignature', message),
  expiredSignature: () => new StorageError(400, 'ExpiredToken', 'The provided token has expired.'),
  accessDenied: (message = 'new row violates row-level security policy') =>
    new StorageError(403, 'AccessDenied', message, 'Unauthorized'),
  keyExists: () =>
    new StorageError(409, 'KeyAlreadyExists', 'The resource already exists', 'Duplicate'),
  bucketExists: () =>
    new StorageError(409, 'BucketAlreadyExists', 'The resource already exists', 'Duplicate'),
  bucketNotEmpty: () =>
    new StorageError(409, 'ResourceNotEmpty', 'The bucket you tried to delete is not empty'),
  entityTooLarge: (limit: number) =>
    new StorageError(
      413,
      'EntityTooLarge',
      `The object exceeded the maximum allowed size (${limit} bytes)`,
      'Payload too large',
    ),
  invalidMimeType: (mimeType: string) =>
    new StorageError(
      415,
      'InvalidMimeType',
      `mime type ${printable(mimeType)} is not supported`,
      'invalid_mime_type',
    ),
  invalidRange: () =>
    new StorageError(416, 'InvalidRange', 'The requested range is not satisfiable'),
};

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/g;

/** Keys are echoed in messages; control characters would garble a log or a terminal. */
function printable(value: string): string {
  const cleaned = value.replace(CONTROL_CHARS, '\uFFFD');
  return cleaned.length > 200 ? `${cleaned.slice(0, 200)}…` : cleaned;
}

interface PgError {
  code?: string;
  message?: string;
}

/** Maps a database error raised under the request's role to a storage error, or rethrows. */
export function fromDatabaseError(error: unknown, onUnique: () => StorageError): never {
  const pgError = error as PgError;
  if (pgError?.code === '42501') throw storageErrors.accessDenied(pgError.message);
  if (pgError?.code === '23505') throw onUnique();
  if (pgError?.code === '23503') throw storageErrors.noSuchBucket();
  throw error;
}
