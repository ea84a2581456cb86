import { describe, expect, it } from 'vitest';
import { filtersToParams, noFilters, readFilters } from './report-filters';

const course = '5b0e7f3c-8d2a-4c1e-9f6b-2a3d4e5f6a7b';

describe('report filters', () => {
  it('round-trip through the address', () => {
    const filters = { course, board: '', from: '2026-09-01', to: '2026-11-30' };
    const params = filtersToParams(filters);
    expect(params.toString()).toBe(`course=${course}&from=2026-09-01&to=2026-11-30`);
    expect(readFilters(params)).toEqual({ filters, errors: {} });
  });

  it('refuse an end before the start, on the end field', () => {
    const read = readFilters(new URLSearchParams('from=2026-11-02&to=2026-11-01'));
    expect(read.filters).toEqual(noFilters);
    expect(read.errors).toEqual({ to: 'The end date must be on or after the start date.' });
  });

  it('refuse a malformed date or id with a field error', () => {
    const read = readFilters(new URLSearchParams('from=2026-13-40&course=not-a-course'));
    expect(read.errors.from).toBe('Enter a date as YYYY-MM-DD.');
    expect(read.errors.course).toBe('Choose a course or board from the list.');
  });
});
