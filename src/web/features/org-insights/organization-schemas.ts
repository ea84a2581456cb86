/**
 * The rules of the organization's settings, as the database states them (db/app/0321, 0362):
 * checked here first so a person sees what is wrong beside the field, and again by the
 * database, whose sentence the screen shows if it still refuses.
 */
import { z } from 'zod';

export const THRESHOLD_DEFAULT = 3;

export const thresholdSchema = z.object({
  struggleThreshold: z.coerce
    .number({ error: 'Enter a whole number from 1 to 10.' })
    .int('Enter a whole number from 1 to 10.')
    .min(1, 'The threshold is at least 1.')
    .max(10, 'The threshold is at most 10.'),
});

export const organizationNameSchema = z
  .string()
  .trim()
  .min(1, 'Enter the organization’s name.')
  .max(200, 'The name is limited to 200 characters.');

export const slugSchema = z
  .string()
  .trim()
  .min(1, 'Enter an address.')
  .max(63, 'The address is limited to 63 characters.')
  .regex(
    /^[a-z0-9]+(-[a-z0-9]+)*$/,
    'Use lower-case letters, digits and single hyphens, not at the start or end.',
  );

export const settingsSchema = z.object({ name: organizationNameSchema, slug: slugSchema });

export type FieldErrors<T extends string> = Partial<Record<T, string>>;

/** Field errors by name, the first message for each. */
export function fieldErrors<T extends string>(error: z.ZodError): FieldErrors<T> {
  const errors: FieldErrors<T> = {};
  for (const issue of error.issues) {
    const field = issue.path[0] as T;
    errors[field] ??= issue.message;
  }
  return errors;
}
