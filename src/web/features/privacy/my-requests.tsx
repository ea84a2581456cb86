/**
 * The privacy page's requests section: file one of the six GDPR requests about yourself and
 * follow its status (due 30 days after filing).
 */
import { useId, useState, type FormEvent } from 'react';
import { Download, Loader2 } from 'lucide-react';
import { toast } from 'sonner';
import { EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Notice } from '@/components/ui/notice';
import { Textarea } from '@/components/ui/textarea';
import {
  requestTypeLabels,
  requestTypes,
  useFileRequest,
  useMyRequests,
  type RequestType,
} from './api/requests';
import { downloadExport, useMyExports } from './api/fulfilment';
import { RequestList } from './request-list';

export function MyRequests({ userId }: { userId: string }) {
  const requests = useMyRequests(userId);
  return (
    <Section
      title="Your data requests"
      id="data-requests"
      description="Ask for a copy of your data, a correction, erasure and your other rights under the GDPR. Each request is answered within 30 days."
    >
      <div className="grid gap-5">
        <FileRequestForm userId={userId} />
        {requests.isPending ? (
          <LoadingBlock label="Loading your requests…" />
        ) : requests.isError ? (
          <LoadError
            message={`Could not load your requests: ${requests.error.message}`}
            onRetry={() => void requests.refetch()}
          />
        ) : requests.data.length === 0 ? (
          <EmptyState>You have not filed a request.</EmptyState>
        ) : (
          <RequestList requests={requests.data} />
        )}
        <MyExports userId={userId} />
      </div>
    </Section>
  );
}

const day = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });

/** The person's prepared exports, each downloadable until it expires (decision 0421). */
function MyExports({ userId }: { userId: string }) {
  const exports = useMyExports(userId);
  const [downloading, setDownloading] = useState<string | null>(null);
  if (exports.isPending || exports.isError || exports.data.length === 0) {
    return exports.isError ? (
      <LoadError
        message={`Could not load your data exports: ${exports.error.message}`}
        onRetry={() => void exports.refetch()}
      />
    ) : null;
  }

  async function download(id: string) {
    setDownloading(id);
    try {
      await downloadExport(id);
    } catch (error) {
      toast.error(`Not downloaded: ${(error as Error).message}`);
    } finally {
      setDownloading(null);
    }
  }

  return (
    <div>
      <h3 className="font-semibold">Your data exports</h3>
      <ul className="mt-2 grid gap-2">
        {exports.data.map((e) => (
          <li
            key={e.id}
            className="flex flex-wrap items-center gap-3 rounded-lg border p-3 text-sm"
          >
            <span>
              Prepared {day.format(new Date(e.ready_at ?? e.created_at))}
              {e.status === 'ready' && e.expires_at
                ? `, ${((e.size_bytes ?? 0) / 1024).toFixed(0)} KB, available until ${day.format(new Date(e.expires_at))}`
                : e.status === 'queued'
                  ? ': being prepared…'
                  : e.status === 'failed'
                    ? ': could not be prepared. Your request stays open and can be prepared again.'
                    : ': expired.'}
            </span>
            {e.status === 'ready' && (
              <Button size="sm" disabled={downloading === e.id} onClick={() => void download(e.id)}>
                <Download aria-hidden="true" />
                {downloading === e.id ? 'Downloading…' : 'Download your data'}
              </Button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function FileRequestForm({ userId }: { userId: string }) {
  const [type, setType] = useState<RequestType>('access');
  const [details, setDetails] = useState('');
  const file = useFileRequest(userId);
  const typeId = useId();
  const detailsId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    file.mutate(
      { type, details },
      {
        onSuccess: () => {
          setDetails('');
          toast.success(`Your ${requestTypeLabels[type].label.toLowerCase()} request is filed.`);
        },
      },
    );
  }

  return (
    <form noValidate onSubmit={submit} className="grid max-w-lg gap-3">
      <div className="grid gap-1.5">
        <Label htmlFor={typeId}>Request</Label>
        <NativeSelect
          id={typeId}
          value={type}
          onChange={(event) => setType(event.target.value as RequestType)}
          aria-describedby={`${typeId}-hint`}
        >
          {requestTypes.map((t) => (
            <option key={t} value={t}>
              {requestTypeLabels[t].label}
            </option>
          ))}
        </NativeSelect>
        <p id={`${typeId}-hint`} className="text-sm text-muted-foreground">
          {requestTypeLabels[type].hint}
        </p>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={detailsId}>
          Details {type === 'rectification' ? '(required)' : '(optional)'}
        </Label>
        <Textarea
          id={detailsId}
          value={details}
          maxLength={2000}
          rows={3}
          onChange={(event) => setDetails(event.target.value)}
        />
      </div>
      {file.isError && <Notice tone="error">Not filed: {file.error.message}</Notice>}
      <div>
        <Button type="submit" disabled={file.isPending}>
          {file.isPending && <Loader2 aria-hidden="true" className="animate-spin" />}
          File request
        </Button>
      </div>
    </form>
  );
}
