/**
 * A function's JSON body, checked with zod: refusals in the functions' own shape
 * `{ error, code }` (functions-js hands the body to the app unread, so the shape is ours).
 */
import type { z } from 'zod';
import type { ApiEnv } from '../context';
import { validJson, type BodyWire } from '../ops/valid-json';

/**
 * The router has already cut the body at the function's `maxBodyBytes` (413 there), so this
 * wire sets no limit of its own.
 */
function functionWire(hint: string | undefined): BodyWire {
  return {
    limit: Number.POSITIVE_INFINITY,
    reject: (rejection, c) =>
      c.json(
        {
          error: hint ?? rejection.message,
          code: 'invalid_request',
          ...(hint ? { details: rejection.message } : {}),
        },
        400,
      ),
  };
}

/**
 * `hint` is the sentence a person reads (e.g. what the body should look like); without one the
 * error is the schema's own description of what was wrong.
 */
export function functionJson<S extends z.ZodType, P extends string = string>(
  schema: S,
  options: { hint?: string } = {},
) {
  return validJson<S, ApiEnv, P>(functionWire(options.hint), schema);
}
