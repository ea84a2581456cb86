import { useRef, useState } from 'react';
import { useNearViewport } from '@/lib/use-near-viewport';
import { DatabaseAnalyticsPanel } from './components/database-analytics-panel';
import { DeploymentAnalyticsPanel } from './components/deployment-analytics-panel';
import { LiveAnalyticsPanel } from './components/live-analytics-panel';

/** The home page's three analytics panels; every figure is measured or read, never invented. */
export function HomeAnalytics() {
  const [liveOpen, setLiveOpen] = useState(true);
  const [databaseOpen, setDatabaseOpen] = useState(true);
  const [deploymentOpen, setDeploymentOpen] = useState(true);
  // The panels load the API client and start polling only when a visitor gets near them.
  const sectionRef = useRef<HTMLElement>(null);
  const near = useNearViewport(sectionRef);
  return (
    <section
      ref={sectionRef}
      aria-labelledby="platform-analytics-heading"
      className="flex min-h-64 flex-col gap-4"
    >
      <div className="flex flex-col gap-1">
        <h2 id="platform-analytics-heading" className="text-2xl font-semibold tracking-tight">
          Platform Analytics
        </h2>
        <p className="text-muted-foreground">
          Live figures from this deployment. Collapse a panel to stop its updates.
        </p>
      </div>
      {near && (
        <>
          <LiveAnalyticsPanel open={liveOpen} onOpenChange={setLiveOpen} />
          <DatabaseAnalyticsPanel open={databaseOpen} onOpenChange={setDatabaseOpen} />
          <DeploymentAnalyticsPanel open={deploymentOpen} onOpenChange={setDeploymentOpen} />
        </>
      )}
    </section>
  );
}
