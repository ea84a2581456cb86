/**
 * A labelled input or native select with its hint and error, wired for assistive technology
 * (`aria-describedby`, `aria-invalid`). The one labelled field of the app's forms; editors that
 * need another control use their feature's render-prop field.
 */
import { useId, type ComponentProps, type ReactNode } from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { cn } from '@/lib/utils';

function described(id: string, hint?: ReactNode, error?: string) {
  return {
    hintId: hint ? `${id}-hint` : undefined,
    errorId: error ? `${id}-error` : undefined,
  };
}

function HintAndError({
  hint,
  error,
  hintId,
  errorId,
}: {
  hint?: ReactNode;
  error?: string;
  hintId?: string;
  errorId?: string;
}) {
  return (
    <>
      {hint && (
        <p id={hintId} className="text-sm text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </>
  );
}

export function Field({
  label,
  hint,
  error,
  className,
  ...input
}: ComponentProps<typeof Input> & { label: string; hint?: ReactNode; error?: string }) {
  const id = useId();
  const { hintId, errorId } = described(id, hint, error);
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={id} className="leading-snug">
        {label}
      </Label>
      <Input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        {...input}
      />
      <HintAndError hint={hint} error={error} hintId={hintId} errorId={errorId} />
    </div>
  );
}

export function SelectField({
  label,
  hint,
  error,
  className,
  children,
  ...select
}: ComponentProps<'select'> & { label: string; hint?: ReactNode; error?: string }) {
  const id = useId();
  const { hintId, errorId } = described(id, hint, error);
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={id} className="leading-snug">
        {label}
      </Label>
      <NativeSelect
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        {...select}
      >
        {children}
      </NativeSelect>
      <HintAndError hint={hint} error={error} hintId={hintId} errorId={errorId} />
    </div>
  );
}
