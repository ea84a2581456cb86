/** The report's filters: course, board and enrolment dates, checked before they apply. */
import { useState, type FormEvent } from 'react';
import { Filter } from 'lucide-react';
import { Button } from '@/components/ui/button';
import type { FilterOptions } from './api/get-filter-options';
import { Field, SelectField } from '@/components/ui/field';
import {
  filterErrors,
  noFilters,
  reportFiltersSchema,
  type ReportFilterErrors,
  type ReportFilters,
} from './report-filters';

export function ReportFilterForm({
  applied,
  options,
  initialErrors,
  onApply,
}: {
  applied: ReportFilters;
  options: FilterOptions;
  initialErrors: ReportFilterErrors;
  onApply: (filters: ReportFilters) => void;
}) {
  const [draft, setDraft] = useState(applied);
  const [errors, setErrors] = useState<ReportFilterErrors>(initialErrors);
  const set = (key: keyof ReportFilters) => (event: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: event.target.value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = reportFiltersSchema.safeParse(draft);
    if (!parsed.success) {
      setErrors(filterErrors(parsed.error));
      return;
    }
    setErrors({});
    onApply(parsed.data);
  }

  return (
    <form
      noValidate
      onSubmit={submit}
      aria-label="Report filters"
      className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4"
    >
      <SelectField
        label="Course"
        value={draft.course}
        onChange={set('course')}
        error={errors.course}
      >
        <option value="">All courses</option>
        {options.courses.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </SelectField>
      <SelectField label="Board" value={draft.board} onChange={set('board')} error={errors.board}>
        <option value="">All boards</option>
        {options.boards.map((b) => (
          <option key={b.id} value={b.id}>
            {b.name}
          </option>
        ))}
      </SelectField>
      <Field
        label="Enrolled from"
        type="date"
        value={draft.from}
        onChange={set('from')}
        error={errors.from}
      />
      <Field
        label="Enrolled to"
        type="date"
        value={draft.to}
        onChange={set('to')}
        error={errors.to}
      />
      <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-4">
        <Button type="submit">
          <Filter aria-hidden="true" />
          Apply filters
        </Button>
        <Button
          type="button"
          variant="outline"
          onClick={() => {
            setDraft(noFilters);
            setErrors({});
            onApply(noFilters);
          }}
        >
          Clear filters
        </Button>
      </div>
    </form>
  );
}
