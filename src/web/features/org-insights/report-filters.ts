/**
 * The report's filters: a course, a board (its learners) and a range of enrolment dates. They
 * live in the address (`?course=…&board=…&from=…&to=…`), so the printable view opens with the
 * same filters and a report can be bookmarked; anything malformed there is reported, not
 * guessed at.
 */
import { z } from 'zod';

const uuid = z.uuid('Choose a course or board from the list.');
const day = z.iso.date('Enter a date as YYYY-MM-DD.');

export const reportFiltersSchema = z
  .object({
    course: z.union([z.literal(''), uuid]),
    board: z.union([z.literal(''), uuid]),
    from: z.union([z.literal(''), day]),
    to: z.union([z.literal(''), day]),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, {
    path: ['to'],
    message: 'The end date must be on or after the start date.',
  });

export type ReportFilters = z.infer<typeof reportFiltersSchema>;
export type ReportFilterErrors = Partial<Record<keyof ReportFilters, string>>;

export const noFilters: ReportFilters = { course: '', board: '', from: '', to: '' };

/** Field errors by name, the first message for each. */
export function filterErrors(error: z.ZodError): ReportFilterErrors {
  const errors: ReportFilterErrors = {};
  for (const issue of error.issues) {
    const field = issue.path[0] as keyof ReportFilters;
    errors[field] ??= issue.message;
  }
  return errors;
}

export function readFilters(params: URLSearchParams): {
  filters: ReportFilters;
  errors: ReportFilterErrors;
} {
  const raw = {
    course: params.get('course') ?? '',
    board: params.get('board') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
  };
  const parsed = reportFiltersSchema.safeParse(raw);
  return parsed.success
    ? { filters: parsed.data, errors: {} }
    : { filters: noFilters, errors: filterErrors(parsed.error) };
}

export function filtersToParams(filters: ReportFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  return params;
}
