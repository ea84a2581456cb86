/**
 * The JSON bodies storage-js sends, checked with zod at the edge (decision 0026). The schemas
 * check the wire's types, as storage-api's request schemas do; the domain (`storage/objects.ts`)
 * keeps the rules server code must meet too (bucket names, MIME patterns, size limits).
 * A refused body is Storage's `InvalidRequest` (400), or `EntityTooLarge` (413).
 */
import { z } from 'zod';
import type { ApiEnv } from '../context';
import { validJson, type BodyWire } from '../ops/valid-json';
import { storageErrors } from '../../storage/errors';
import { LIST_SORT_COLUMNS } from '../../storage/list-cursor';

/** Bucket settings and listings are small; object bytes never come through here. */
export const MAX_JSON_BYTES = 1024 * 1024;

const storageWire: BodyWire = {
  limit: MAX_JSON_BYTES,
  reject(rejection) {
    if (rejection.problem === 'too_large') throw storageErrors.entityTooLarge(rejection.limit);
    throw storageErrors.invalidRequest(rejection.message);
  },
};

export function storageJson<S extends z.ZodType, P extends string = string>(schema: S) {
  return validJson<S, ApiEnv, P>(storageWire, schema);
}

const bucketSettings = {
  public: z.boolean().optional(),
  /** A number of bytes, or a size such as "1KB"; null for no limit of its own. */
  file_size_limit: z.union([z.number(), z.string()]).nullish(),
  allowed_mime_types: z.array(z.string()).nullish(),
};

export const createBucketBody = z.object({
  id: z.string().optional(),
  name: z.string().optional(),
  ...bucketSettings,
});

export const updateBucketBody = z.object(bucketSettings);

export const listBody = z.object({
  prefix: z.string().nullish(),
  limit: z.number().int().optional(),
  offset: z.number().int().optional(),
  sortBy: z.object({ column: z.string().optional(), order: z.string().optional() }).optional(),
  search: z.string().nullish(),
});

/** `listV2` (storage-js 2.x) as storage-api's schema takes it; unknown fields are ignored. */
export const listV2Body = z.object({
  prefix: z.string().optional(),
  limit: z.number().int().min(1).optional(),
  cursor: z.string().optional(),
  with_delimiter: z.boolean().optional(),
  sortBy: z
    .object({ column: z.enum(LIST_SORT_COLUMNS), order: z.enum(['asc', 'desc']).optional() })
    .optional(),
});

export const moveBody = z.object({
  bucketId: z.string(),
  sourceKey: z.string(),
  destinationKey: z.string(),
  /** The source's bucket when absent. */
  destinationBucket: z.string().nullish(),
  copyMetadata: z.boolean().optional(),
});

export const signBody = z.object({
  /** Checked further by `checkExpiresIn` (a whole number of seconds, within the maximum). */
  expiresIn: z.union([z.number(), z.string()]).optional(),
  /** Several paths in one bucket (`createSignedUrls`). */
  paths: z.array(z.string()).optional(),
  /** Image transformation the URL renders; checked by `checkTransform`. */
  transform: z.record(z.string(), z.unknown()).optional(),
});

export const removeBody = z.object({
  prefixes: z.array(z.string()).max(1000, 'At most 1000 objects can be removed at once').optional(),
});
