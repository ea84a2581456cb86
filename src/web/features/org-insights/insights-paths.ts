/** The organization admin's screens (their routes are in src/common/routes.ts). */
import { filtersToParams, type ReportFilters } from './report-filters';

export const insightsPaths = {
  analytics: '/app/org/analytics',
  thresholds: '/app/org/thresholds',
  reports: '/app/org/reports',
  settings: '/app/org/settings',
  printableReport(filters: ReportFilters): string {
    const query = filtersToParams(filters).toString();
    return `/app/org/reports/print${query ? `?${query}` : ''}`;
  },
};
