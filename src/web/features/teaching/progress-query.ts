/**
 * The progress table's view — search, status filter, sort column and direction, page — read
 * from and written to the address, so a filtered table can be shared and Back works. Anything
 * the address holds that is not a valid choice falls back to the default rather than failing.
 */
import { z } from 'zod';

export const progressStatuses = ['not_started', 'in_progress', 'struggling', 'completed'] as const;
export type ProgressStatus = (typeof progressStatuses)[number];

export const statusLabels: Record<ProgressStatus, string> = {
  not_started: 'Not started',
  in_progress: 'In progress',
  struggling: 'Struggling',
  completed: 'Completed',
};

export const sortColumns = [
  'name',
  'email',
  'status',
  'lessons_completed',
  'percent',
  'time_spent',
  'last_activity',
  'average_score',
  'awaiting_grading',
] as const;
export type SortColumn = (typeof sortColumns)[number];

export const PROGRESS_PAGE_SIZE = 25;

export interface ProgressView {
  search: string;
  status: ProgressStatus | null;
  sort: SortColumn;
  descending: boolean;
  /** Counted from 0. */
  page: number;
}

export const searchSchema = z.object({
  search: z.string().trim().max(200, 'Search for at most 200 characters.'),
});

export function viewFromParams(params: URLSearchParams): ProgressView {
  const status = params.get('status');
  const sort = params.get('sort');
  const page = Number(params.get('page') ?? '1');
  return {
    search: (params.get('q') ?? '').trim().slice(0, 200),
    status: progressStatuses.includes(status as ProgressStatus) ? (status as ProgressStatus) : null,
    sort: sortColumns.includes(sort as SortColumn) ? (sort as SortColumn) : 'name',
    descending: params.get('dir') === 'desc',
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page - 1 : 0,
  };
}

/** The address's query for a view; defaults are left out so plain addresses stay plain. */
export function paramsFromView(view: ProgressView): Record<string, string> {
  const params: Record<string, string> = {};
  if (view.search) params.q = view.search;
  if (view.status) params.status = view.status;
  if (view.sort !== 'name') params.sort = view.sort;
  if (view.descending) params.dir = 'desc';
  if (view.page > 0) params.page = String(view.page + 1);
  return params;
}

/** Clicking a column header: a new column sorts ascending, the same one flips direction. */
export function toggleSort(view: ProgressView, column: SortColumn): ProgressView {
  return {
    ...view,
    sort: column,
    descending: view.sort === column ? !view.descending : false,
    page: 0,
  };
}
