/**
 * The search box at the top of a server-searched list: a labelled input, a Search button and
 * the query's validation error under them. The page keeps the draft and decides what a search does.
 */
import { useId, type FormEvent } from 'react';
import { Search } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

interface SearchFormProps {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  onSubmit: (event: FormEvent) => void;
  error: string | null;
  /** The button's word: "Search" for a list, "Find" inside a document. */
  submitLabel?: string;
}

export function SearchForm({
  label,
  value,
  onValueChange,
  onSubmit,
  error,
  submitLabel = 'Search',
}: SearchFormProps) {
  const inputId = useId();
  const errorId = `${inputId}-error`;
  return (
    <form role="search" onSubmit={onSubmit} noValidate className="flex flex-wrap items-end gap-2">
      <div className="grid min-w-0 flex-1 gap-2">
        <Label htmlFor={inputId}>{label}</Label>
        <Input
          id={inputId}
          type="search"
          value={value}
          onChange={(event) => onValueChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
      </div>
      <Button type="submit" variant="outline">
        <Search aria-hidden="true" />
        {submitLabel}
      </Button>
      {error && (
        <p id={errorId} className="w-full text-sm text-destructive">
          {error}
        </p>
      )}
    </form>
  );
}
