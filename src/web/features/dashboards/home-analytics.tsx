/** The home page's three analytics panels (built by the dashboards feature). */
export function HomeAnalytics() {
  return null;
}
