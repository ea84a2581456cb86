/**
 * /data-room: only with a grant from the PIN check. Without one the visitor is sent to the
 * home page (replacing this history entry); a grant the server rejects is forgotten the same way.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { LogOut } from 'lucide-react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DataRoomRequestError } from './api/data-room-client';
import {
  dataRoomKeys,
  leaveDataRoom,
  useDataRoomDocuments,
  useDataRoomOverview,
} from './api/data-room-queries';
import { DocumentTabs } from './document-tabs';
import { DocumentViewer } from './document-viewer';
import { formatLongDate } from './format';
import { clearDataRoomAccess, hasDataRoomAccess, subscribeToGrant } from './grant-store';
import { MasterReadmeCard, OverviewCard } from './overview-section';
import {
  AccessInstructionsCard,
  ChecklistCard,
  ConfidentialityCard,
  ContactCard,
  OnRequestCard,
  SummaryCard,
} from './reference-sections';

function useGrantPresent(): boolean {
  return useSyncExternalStore(subscribeToGrant, hasDataRoomAccess, () => false);
}

export function DataRoomPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const granted = useGrantPresent();
  const [selectedPath, setSelectedPath] = useState<string | null>(null);
  const overview = useDataRoomOverview(granted);
  const documents = useDataRoomDocuments(granted);

  useEffect(() => {
    if (!granted) navigate('/', { replace: true });
  }, [granted, navigate]);

  // Confidential figures and lists do not stay in the query cache once the visitor leaves.
  useEffect(() => () => queryClient.removeQueries({ queryKey: dataRoomKeys.all }), [queryClient]);

  const failure = overview.error ?? documents.error;
  useEffect(() => {
    if (!failure) return;
    if (failure instanceof DataRoomRequestError && failure.status === 401) {
      toast.error('Your data room access has ended. Please enter the PIN again.');
      clearDataRoomAccess();
    }
  }, [failure]);

  async function leave() {
    try {
      await leaveDataRoom();
    } catch (error) {
      // The grant is forgotten here either way; it also expires on its own on the server.
      console.error('Could not end the data room grant on the server', error);
    }
    clearDataRoomAccess();
  }

  if (!granted) return null;
  const data = overview.data;

  return (
    <div className="mx-auto w-full max-w-6xl space-y-8 px-4 py-8 sm:px-6 lg:px-8">
      <header className="space-y-4">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <h1 className="font-serif text-3xl font-semibold tracking-tight text-primary sm:text-4xl">
            Due Diligence Data Room
          </h1>
          <Button type="button" variant="outline" size="sm" onClick={() => void leave()}>
            <LogOut aria-hidden="true" />
            Leave data room
          </Button>
        </div>
        <div className="flex flex-wrap gap-2">
          <Badge variant="secondary">Version {data?.edition ?? '…'}</Badge>
          <Badge variant="secondary">
            Updated {data?.lastUpdated ? formatLongDate(data.lastUpdated) : '…'}
          </Badge>
          <Badge variant="destructive">Confidential - Qualified Investors Only</Badge>
        </div>
        <p className="max-w-3xl text-muted-foreground">
          Due diligence materials for the seed funding round of €4M: corporate and legal records,
          the financial model with 5-year projections in three scenarios (base, optimistic and
          conservative), business plan, technology, team and compliance.
        </p>
        {failure && !(failure instanceof DataRoomRequestError && failure.status === 401) && (
          <p
            role="alert"
            className="rounded-md border border-destructive/40 p-3 text-sm text-destructive"
          >
            The data room could not be loaded: {failure.message}
          </p>
        )}
      </header>

      <OverviewCard overview={data} />
      <MasterReadmeCard onOpen={setSelectedPath} />
      <DocumentTabs documents={documents.data} onOpen={setSelectedPath} />
      <ChecklistCard />
      <OnRequestCard />
      <AccessInstructionsCard documents={documents.data} />
      <ConfidentialityCard />
      <ContactCard />
      <SummaryCard overview={data} />

      <DocumentViewer path={selectedPath} onClose={() => setSelectedPath(null)} />
    </div>
  );
}
