/**
 * The first-load budget of issue 2, checked on the build the browser tests run against: a
 * documentation page loads at most 120 KB gzip of JavaScript before it first renders.
 * bench/page-weight.ts prints the details.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { routes } from '@common/routes';
import { DOC_PAGE_BUDGET_KB, measure, totals } from '../../bench/page-weight';

// The e2e set-up serves this directory (tests/support/global-e2e.ts does the same).
const distDir = path.resolve(process.env.WEB_DIST_DIR ?? 'dist/web');

describe('first-load JavaScript budget', () => {
  it.each(routes.filter((route) => route.kind === 'doc').map((route) => route.path))(
    '%s stays within the documentation page budget',
    (pathname) => {
      const { js } = totals(measure(distDir, pathname));
      expect(js / 1024).toBeLessThanOrEqual(DOC_PAGE_BUDGET_KB);
    },
  );
});
