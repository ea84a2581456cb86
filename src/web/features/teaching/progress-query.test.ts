import { describe, expect, it } from 'vitest';
import { paramsFromView, toggleSort, viewFromParams } from './progress-query';

describe('the progress table view in the address', () => {
  it('reads search, status, sort, direction and page, and writes them back', () => {
    const view = viewFromParams(
      new URLSearchParams('q= ada &status=struggling&sort=percent&dir=desc&page=3'),
    );
    expect(view).toEqual({
      search: 'ada',
      status: 'struggling',
      sort: 'percent',
      descending: true,
      page: 2,
    });
    expect(paramsFromView(view)).toEqual({
      q: 'ada',
      status: 'struggling',
      sort: 'percent',
      dir: 'desc',
      page: '3',
    });
  });

  it('falls back to the defaults for values that are not a choice', () => {
    expect(
      viewFromParams(new URLSearchParams('status=asleep&sort=password&dir=up&page=-4')),
    ).toEqual({ search: '', status: null, sort: 'name', descending: false, page: 0 });
    expect(viewFromParams(new URLSearchParams('page=1.5')).page).toBe(0);
    expect(paramsFromView(viewFromParams(new URLSearchParams()))).toEqual({});
  });

  it('sorts a new column ascending, flips the same one, and returns to the first page', () => {
    const view = viewFromParams(new URLSearchParams('sort=name&page=4'));
    const byPercent = toggleSort(view, 'percent');
    expect(byPercent).toMatchObject({ sort: 'percent', descending: false, page: 0 });
    expect(toggleSort(byPercent, 'percent')).toMatchObject({ sort: 'percent', descending: true });
  });
});
