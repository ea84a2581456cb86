/** A deck's name, course, description and desired retention: for a new deck and for settings. */
import { useId, useState, type FormEvent } from 'react';
import { MAX_RETENTION, MIN_RETENTION } from '@common/flashcards';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import type { CourseChoice, DeckInput } from './api/decks';

export function DeckForm({
  initial,
  courses,
  submitLabel,
  pending,
  onSubmit,
}: {
  initial: DeckInput;
  courses: readonly CourseChoice[];
  submitLabel: string;
  pending: boolean;
  onSubmit: (input: DeckInput) => void;
}) {
  const id = useId();
  const [value, setValue] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const retentionPercent = Math.round(value.desiredRetention * 100);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const name = value.name.trim();
    if (!name) return setProblem('Give the deck a name.');
    if (name.length > 120) return setProblem('A deck name has at most 120 characters.');
    setProblem(null);
    onSubmit({ ...value, name });
  };

  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-name`}>Name</Label>
        <Input
          id={`${id}-name`}
          value={value.name}
          maxLength={120}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(event) => setValue({ ...value, name: event.target.value })}
        />
        {problem && (
          <p id={`${id}-problem`} className="text-sm text-destructive">
            {problem}
          </p>
        )}
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-course`}>Course</Label>
        <NativeSelect
          id={`${id}-course`}
          value={value.courseId ?? ''}
          onChange={(event) => setValue({ ...value, courseId: event.target.value || null })}
        >
          <option value="">None (a personal deck)</option>
          {courses.map((course) => (
            <option key={course.id} value={course.id}>
              {course.title}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-retention`}>Desired retention: {retentionPercent}%</Label>
        <input
          id={`${id}-retention`}
          type="range"
          min={MIN_RETENTION * 100}
          max={MAX_RETENTION * 100}
          step={1}
          value={retentionPercent}
          aria-describedby={`${id}-retention-help`}
          className="w-full accent-primary"
          onChange={(event) =>
            setValue({ ...value, desiredRetention: Number(event.target.value) / 100 })
          }
        />
        <p id={`${id}-retention-help`} className="text-xs text-muted-foreground">
          The chance of remembering a card when it comes up. Higher means more reviews; 90% suits
          most decks.
        </p>
      </div>
      <div>
        <Button type="submit" disabled={pending}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
