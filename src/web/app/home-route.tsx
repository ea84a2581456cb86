/**
 * The home route composes three features: the site's home content, the live dashboards and
 * the data room's investor card. Composition lives here so features never import each other.
 */
import { HomeAnalytics } from '@/features/dashboards/home-analytics';
import { InvestorCard } from '@/features/data-room/investor-card';
import { HomePage } from '@/features/site/pages/home-page';

export function HomeRoute() {
  return <HomePage analytics={<HomeAnalytics />} investors={<InvestorCard />} />;
}
