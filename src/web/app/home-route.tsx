/**
 * The home route composes three features: the site's home content, the live dashboards and
 * the data room's investor card. Composition lives here so features never import each other.
 */
import { lazy } from 'react';
import { HomeAnalytics } from '@/features/dashboards/home-analytics';
import { InvestorCard } from '@/features/data-room/investor-card';
import { HomePage } from '@/features/site/pages/home-page';
import { loadQueryClient } from './query-provider';

// The panels' code and TanStack Query load when the panels come near the viewport, not with
// the page: the home page's JavaScript until idle stays within 120 KB (decision 0191).
const HomeAnalyticsPanels = lazy(() =>
  Promise.all([import('@/features/dashboards/home-analytics-panels'), loadQueryClient()]).then(
    ([module]) => ({ default: module.HomeAnalyticsPanels }),
  ),
);

export function HomeRoute() {
  return (
    <HomePage
      analytics={<HomeAnalytics panels={<HomeAnalyticsPanels />} />}
      investors={<InvestorCard />}
    />
  );
}
