/**
 * The privacy page's requests section: file one of the six GDPR requests about yourself and
 * follow its status (due 30 days after filing).
 */
import { useId, useState, type FormEvent } from 'react';
import { Loader2 } from 'lucide-react';
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
      </div>
    </Section>
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
