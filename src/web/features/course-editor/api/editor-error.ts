/**
 * Errors of the editor's calls, with the form field they belong to when the service names
 * one. The database checks every rule the forms check (decision 0100), so a row that passes
 * the form but fails there still lands its message under the right field: a check
 * constraint's name says which column it guards.
 */
export class EditorError extends Error {
  constructor(
    message: string,
    /** The service's code: a SQLSTATE (`23514`), `PGRST413`, a storage status. */
    readonly code: string | undefined,
    /** The form field the message belongs to, when known. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'EditorError';
  }
}

/** Constraint name → the field it guards and what to tell the person. */
export type ConstraintMessages = Record<string, { field: string; message: string }>;

interface ServiceError {
  message: string;
  code?: string;
}

const tooLarge =
  'This is larger than the server accepts in one request (1 MB). Split the text into two lessons.';

/** A Supabase error as an EditorError, placed on a field through `constraints` if possible. */
export function editorError(
  error: ServiceError,
  constraints: ConstraintMessages = {},
  largeField?: string,
): EditorError {
  if (error.code === 'PGRST413') return new EditorError(tooLarge, error.code, largeField);
  if (error.code === '42501') {
    return new EditorError(
      'You may not change this: only instructors of the course and its organization’s admins can.',
      error.code,
    );
  }
  const constraint = /constraint "([^"]+)"/.exec(error.message)?.[1];
  const known = constraint ? constraints[constraint] : undefined;
  if (known) return new EditorError(known.message, error.code, known.field);
  return new EditorError(error.message, error.code);
}
