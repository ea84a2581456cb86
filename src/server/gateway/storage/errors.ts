/**
 * Storage errors on the wire: `{statusCode, code, error, message}`, as storage-js reads them.
 * Unlike Supabase (which answers most 4xx with HTTP 400), the HTTP status here equals
 * `statusCode`: see decision 0020.
 */
import type { StorageError } from '../../storage/errors';
import { type StorageErrorCode } from '../../storage/errors';

export type StorageStatus = 400 | 403 | 404 | 409 | 413 | 415 | 416 | 500;

const statusOf: Record<StorageErrorCode, StorageStatus> = {
  NoSuchBucket: 404,
  NoSuchKey: 404,
  InvalidKey: 400,
  InvalidBucketName: 400,
  InvalidRequest: 400,
  InvalidParameter: 400,
  InvalidJWT: 400,
  InvalidSignature: 400,
  ExpiredToken: 400,
  AccessDenied: 403,
  KeyAlreadyExists: 409,
  BucketAlreadyExists: 409,
  ResourceNotEmpty: 409,
  EntityTooLarge: 413,
  InvalidMimeType: 415,
  InvalidRange: 416,
  InternalError: 500,
};

export function storageStatus(error: StorageError): StorageStatus {
  return statusOf[error.code];
}

export function storageErrorBody(error: StorageError) {
  return {
    statusCode: String(storageStatus(error)),
    code: error.code,
    error: error.error,
    message: error.message,
  };
}
