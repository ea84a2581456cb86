import { useState } from 'react';
import { DatabaseAnalyticsPanel } from './components/database-analytics-panel';
import { DeploymentAnalyticsPanel } from './components/deployment-analytics-panel';
import { LiveAnalyticsPanel } from './components/live-analytics-panel';

/**
 * The home page's three analytics panels, loaded (with the query client) when the visitor gets
 * near them: the home page's first load carries only their section and heading (decision 0191).
 */
export function HomeAnalyticsPanels() {
  const [liveOpen, setLiveOpen] = useState(true);
  const [databaseOpen, setDatabaseOpen] = useState(true);
  const [deploymentOpen, setDeploymentOpen] = useState(true);
  return (
    <>
      <LiveAnalyticsPanel open={liveOpen} onOpenChange={setLiveOpen} />
      <DatabaseAnalyticsPanel open={databaseOpen} onOpenChange={setDatabaseOpen} />
      <DeploymentAnalyticsPanel open={deploymentOpen} onOpenChange={setDeploymentOpen} />
    </>
  );
}
