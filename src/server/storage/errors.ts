/**
 * What can go wrong in storage, in Supabase Storage's vocabulary: a `code` (storage-js reads
 * it), a message, and Supabase's short `error` label. No HTTP status: the gateway maps codes to
 * statuses at the edge (gateway/storage/errors.ts), so server code calling storage directly
 * (the data room, seeds) handles the same errors without HTTP in sight.
 */
export type StorageErrorCode =
  | 'NoSuchBucket'
  | 'NoSuchKey'
  | 'InvalidKey'
  | 'InvalidBucketName'
  | 'InvalidRequest'
  | 'InvalidParameter'
  | 'InvalidJWT'
  | 'InvalidSignature'
  | 'ExpiredToken'
  | 'AccessDenied'
  | 'KeyAlreadyExists'
  | 'BucketAlreadyExists'
  | 'ResourceNotEmpty'
  | 'EntityTooLarge'
  | 'InvalidMimeType'
  | 'InvalidRange'
  | 'InternalError';

export class StorageError extends Error {
  constructor(
    public readonly code: StorageErrorCode,
    message: string,
    public readonly error: string = code,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

export const storageErrors = {
  noSuchBucket: () => new StorageError('NoSuchBucket', 'Bucket not found', 'Bucket not found'),
  noSuchKey: () => new StorageError('NoSuchKey', 'Object not found', 'not_found'),
  invalidKey: (key: string, why: string) =>
    new StorageError('InvalidKey', `Invalid key: ${printable(key)} (${why})`),
  invalidBucketName: (name: string) =>
    new StorageError(
      'InvalidBucketName',
      `Bucket name invalid: ${printable(name)}. Use 1-100 letters, digits, "-", "_" or ".", starting with a letter or digit.`,
      'Invalid Input',
    ),
  invalidRequest: (message: string) => new StorageError('InvalidRequest', message),
  invalidParameter: (message: string) => new StorageError('InvalidParameter', message),
  invalidJwt: (message = 'Invalid JWT') => new StorageError('InvalidJWT', message),
  invalidSignature: (message = 'Invalid signature') =>
    new StorageError('InvalidSignature', message),
  expiredSignature: () => new StorageError('ExpiredToken', 'The provided token has expired.'),
  accessDenied: (message = 'new row violates row-level security policy') =>
    new StorageError('AccessDenied', message, 'Unauthorized'),
  keyExists: () => new StorageError('KeyAlreadyExists', 'The resource already exists', 'Duplicate'),
  bucketExists: () =>
    new StorageError('BucketAlreadyExists', 'The resource already exists', 'Duplicate'),
  bucketNotEmpty: () =>
    new StorageError('ResourceNotEmpty', 'The bucket you tried to delete is not empty'),
  entityTooLarge: (limit: number) =>
    new StorageError(
      'EntityTooLarge',
      `The object exceeded the maximum allowed size (${limit} bytes)`,
      'Payload too large',
    ),
  invalidMimeType: (mimeType: string) =>
    new StorageError(
      'InvalidMimeType',
      `mime type ${printable(mimeType)} is not supported`,
      'invalid_mime_type',
    ),
  invalidRange: () => new StorageError('InvalidRange', 'The requested range is not satisfiable'),
  internal: () => new StorageError('InternalError', 'Internal server error'),
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
