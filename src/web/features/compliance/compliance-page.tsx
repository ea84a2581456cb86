/**
 * The compliance officer's console (/app/compliance, decision 0420): read-only review of the
 * audit log (filter, search, export) with the hash chain verified on demand, data-access
 * patterns by day, security incidents with their notification clocks, data subject requests'
 * status, consent records and retention runs. Compliance officers see their organization's
 * identifiers and actions, never the content of personal records; platform admins see every
 * organization (or the workspace's). Row-level security and the console's functions decide.
 */
import { useSearchParams } from 'react-router';
import { AppPage } from '@/components/app-page';
import { Notice } from '@/components/ui/notice';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAppSession } from '@/lib/app-session';
import { AccessPatternsPanel } from './access-patterns-panel';
import { AuditLogPanel } from './audit-log-panel';
import { ChainCheck } from './chain-check';
import { ConsentPanel } from './consent-panel';
import { HipaaLogPanel } from './hipaa-log-panel';
import { IncidentsPanel } from './incidents-panel';
import { LegalHoldsPanel } from './legal-holds-panel';
import { RequestsPanel } from './requests-panel';
import { RetentionPanel } from './retention-panel';

const tabs = [
  { value: 'audit', label: 'Audit log' },
  { value: 'access', label: 'Access patterns' },
  { value: 'hipaa', label: 'HIPAA access' },
  { value: 'incidents', label: 'Incidents' },
  { value: 'requests', label: 'Data requests' },
  { value: 'consent', label: 'Consent' },
  { value: 'retention', label: 'Retention' },
  { value: 'holds', label: 'Legal holds', platformOnly: true },
] as const;
type Tab = (typeof tabs)[number]['value'];

export function CompliancePage() {
  const { userId, workspace, platformAdmin } = useAppSession();
  const [params, setParams] = useSearchParams();
  const officer =
    workspace.kind === 'organization' && workspace.roles.includes('compliance_officer');
  if (!officer && !platformAdmin) {
    return (
      <AppPage title="Compliance">
        <Notice tone="info">
          The compliance console is for compliance officers and platform admins. Choose the
          organization where you are a compliance officer in the workspace switcher.
        </Notice>
      </AppPage>
    );
  }
  const organizationId = workspace.kind === 'organization' ? workspace.organizationId : null;
  const scopeName =
    workspace.kind === 'organization' ? workspace.organizationName : 'every organization';
  const requested = params.get('tab');
  // Legal holds are the platform admins' to place and release (decision 0423).
  const shown = tabs.filter((t) => !('platformOnly' in t) || platformAdmin);
  const tab: Tab = shown.some((t) => t.value === requested) ? (requested as Tab) : 'audit';
  const scope = { userId, organizationId };

  return (
    <AppPage
      wide
      title="Compliance"
      intro={`Audit log, access patterns, the HIPAA access log, incidents, data requests, consent and retention for ${scopeName}. Identifiers and actions only: the content of personal records is not shown here.`}
    >
      <ChainCheck />
      <Tabs
        value={tab}
        onValueChange={(value) =>
          setParams(
            (current) => {
              current.set('tab', value);
              return current;
            },
            { replace: true },
          )
        }
      >
        <TabsList className="h-auto w-full flex-wrap justify-start">
          {shown.map((t) => (
            <TabsTrigger key={t.value} value={t.value} className="h-8 flex-none">
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="audit">
          <AuditLogPanel {...scope} />
        </TabsContent>
        <TabsContent value="access">
          <AccessPatternsPanel {...scope} />
        </TabsContent>
        <TabsContent value="hipaa">
          <HipaaLogPanel {...scope} />
        </TabsContent>
        <TabsContent value="incidents">
          <IncidentsPanel {...scope} />
        </TabsContent>
        <TabsContent value="requests">
          <RequestsPanel {...scope} />
        </TabsContent>
        <TabsContent value="consent">
          <ConsentPanel {...scope} />
        </TabsContent>
        <TabsContent value="retention">
          <RetentionPanel userId={userId} />
        </TabsContent>
        {platformAdmin && (
          <TabsContent value="holds">
            <LegalHoldsPanel userId={userId} />
          </TabsContent>
        )}
      </Tabs>
    </AppPage>
  );
}
