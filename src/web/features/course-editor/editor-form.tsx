/**
 * The editor's form pieces: a labelled field that wires its control to its description and
 * error (ids, aria-invalid, aria-describedby), zod issues as field errors keyed by path
 * (`choices.1.text`), and the one place a failed save becomes a field error or a form error.
 */
import { useId, type ReactNode } from 'react';
import type { ZodError } from 'zod';
import { Notice } from '@/components/ui/notice';
import { cn } from '@/lib/utils';
import { EditorError } from './api/editor-error';

export type FieldErrors = Record<string, string>;

/** The first message for each path of a zod error. */
export function zodFieldErrors(error: ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || 'form';
    errors[key] ??= issue.message;
  }
  return errors;
}

/** A failed save: its message under the field the service named, else above the form. */
export function saveErrors(error: unknown): FieldErrors {
  if (error instanceof EditorError && error.field) return { [error.field]: error.message };
  return { form: error instanceof Error ? error.message : String(error) };
}

export interface ControlProps {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

export function Field({
  label,
  error,
  description,
  className,
  children,
}: {
  label: ReactNode;
  error?: string;
  description?: ReactNode;
  className?: string;
  children: (props: ControlProps) => ReactNode;
}) {
  const id = useId();
  const descriptionId = `${id}-description`;
  const errorId = `${id}-error`;
  const describedBy = [description ? descriptionId : null, error ? errorId : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={cn('grid min-w-0 gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
      {description && (
        <p id={descriptionId} className="text-xs text-muted-foreground">
          {description}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

/** A message for the whole form (a save that failed for no one field). */
export function FormError({ errors }: { errors: FieldErrors }) {
  const count = Object.keys(errors).filter((key) => key !== 'form').length;
  if (!errors.form && count === 0) return null;
  return (
    <Notice tone="error">
      {errors.form ??
        (count === 1 ? 'One field needs attention.' : `${count} fields need attention.`)}
    </Notice>
  );
}
