/**
 * IEP documents (/app/iep, decision 0422): an organization's admins and a learner's instructors
 * choose the learner, say why they need the documents, and list and open them; admins also
 * store and delete them. Each of these is recorded in the HIPAA access log with the reason,
 * which the organization's compliance officer reviews. The server decides who may do what.
 */
import { useRef, useState, type FormEvent } from 'react';
import { Download, FileUp, Search, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Field, SelectField } from '@/components/ui/field';
import { Label } from '@/components/ui/label';
import { Notice } from '@/components/ui/notice';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { Textarea } from '@/components/ui/textarea';
import { useAppSession } from '@/lib/app-session';
import {
  openIepDocument,
  useDeleteIepDocument,
  useIepLearners,
  useListIepDocuments,
  useUploadIepDocument,
  type IepDocument,
  type IepLearner,
} from './api/iep-documents';

const MIN_REASON = 5;
const MAX_FILE_BYTES = 20 * 1024 * 1024;

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const learnerName = (learner: IepLearner) =>
  learner.display_name ? `${learner.display_name} (${learner.email})` : learner.email;

export function IepPage() {
  const { userId, workspace } = useAppSession();
  const allowed =
    workspace.kind === 'organization' &&
    (workspace.roles.includes('instructor') ||
      (workspace.roles.includes('org_admin') && !workspace.boardAdminOnly) ||
      workspace.isOwner);
  if (!allowed) {
    return (
      <AppPage title="IEP documents">
        <Notice tone="info">
          IEP documents are for a learner&apos;s instructors and their organization&apos;s admins.
          Choose the organization where you teach or administer in the workspace switcher.
        </Notice>
      </AppPage>
    );
  }
  return <IepWorkspace userId={userId} organizationId={workspace.organizationId} />;
}

function IepWorkspace({ userId, organizationId }: { userId: string; organizationId: string }) {
  const learners = useIepLearners(userId, organizationId);
  const list = useListIepDocuments();
  const [learnerId, setLearnerId] = useState('');
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  // The documents shown belong to one learner and one stated reason; changing either hides them.
  const [shown, setShown] = useState<{ learnerId: string; reason: string } | null>(null);
  const learner = learners.data?.find((l) => l.user_id === learnerId);

  function checkReason(): string | null {
    const trimmed = reason.trim();
    if (trimmed.length < MIN_REASON) {
      setReasonError(
        `Say why you need this learner's documents (at least ${MIN_REASON} characters).`,
      );
      return null;
    }
    setReasonError(undefined);
    return trimmed;
  }

  function show(event: FormEvent) {
    event.preventDefault();
    const purpose = checkReason();
    if (!purpose || !learnerId) return;
    list.mutate(
      { learnerId, organizationId, purpose },
      {
        onSuccess: () => setShown({ learnerId, reason: purpose }),
        onError: (error) => toast.error(`Not shown: ${error.message}`),
      },
    );
  }

  const refresh = () => {
    if (shown) list.mutate({ learnerId: shown.learnerId, organizationId, purpose: shown.reason });
  };

  return (
    <AppPage
      title="IEP documents"
      intro="Individual education plans of the learners you teach or administer."
    >
      <Notice tone="info">
        Every time you list, open, store or delete a learner&apos;s IEP documents it is recorded in
        the HIPAA access log with your reason, your roles, your address and session. Your
        organization&apos;s compliance officer reviews that log.
      </Notice>
      <Section title="Learner and reason" id="iep-access" className="min-w-0">
        {learners.isPending ? (
          <LoadingBlock label="Loading learners" />
        ) : learners.isError ? (
          <LoadError message={learners.error.message} onRetry={() => void learners.refetch()} />
        ) : learners.data.length === 0 ? (
          <EmptyState>
            No learners here whose IEP documents you may handle: instructors see the learners
            enrolled in their courses, admins every learner of the organization.
          </EmptyState>
        ) : (
          <form className="grid gap-4" onSubmit={show} noValidate>
            <SelectField
              label="Learner"
              value={learnerId}
              required
              onChange={(event) => {
                setLearnerId(event.target.value);
                setShown(null);
              }}
            >
              <option value="">Choose a learner…</option>
              {learners.data.map((l) => (
                <option key={l.user_id} value={l.user_id}>
                  {learnerName(l)}
                </option>
              ))}
            </SelectField>
            <div className="grid gap-2">
              <Label htmlFor="iep-reason">Reason for access</Label>
              <Textarea
                id="iep-reason"
                value={reason}
                maxLength={500}
                aria-invalid={reasonError ? true : undefined}
                aria-describedby={
                  reasonError ? 'iep-reason-hint iep-reason-error' : 'iep-reason-hint'
                }
                onChange={(event) => {
                  setReason(event.target.value);
                  setShown(null);
                }}
              />
              <p id="iep-reason-hint" className="text-sm text-muted-foreground">
                For example: preparing exam accommodations for this term. Recorded with each access.
              </p>
              {reasonError && (
                <p id="iep-reason-error" className="text-sm text-destructive">
                  {reasonError}
                </p>
              )}
            </div>
            <div>
              <Button type="submit" disabled={!learnerId || list.isPending}>
                <Search aria-hidden="true" />
                {list.isPending ? 'Showing…' : 'Show documents'}
              </Button>
            </div>
          </form>
        )}
      </Section>
      {shown && learner && list.data && (
        <DocumentsSection
          learner={learner}
          reason={shown.reason}
          documents={list.data}
          organizationId={organizationId}
          onChanged={refresh}
        />
      )}
    </AppPage>
  );
}

function DocumentsSection({
  learner,
  reason,
  documents,
  organizationId,
  onChanged,
}: {
  learner: IepLearner;
  reason: string;
  documents: IepDocument[];
  organizationId: string;
  onChanged: () => void;
}) {
  const remove = useDeleteIepDocument();
  const [opening, setOpening] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<{ document: IepDocument; from: HTMLElement } | null>(
    null,
  );

  async function open(document: IepDocument) {
    setOpening(document.id);
    try {
      await openIepDocument(document, reason);
    } catch (error) {
      toast.error(`Not opened: ${(error as Error).message}`);
    } finally {
      setOpening(null);
    }
  }

  return (
    <>
      <Section
        title={`Documents of ${learner.display_name || learner.email}`}
        id="iep-documents"
        className="min-w-0"
        description={`Shown for: “${reason}”`}
      >
        {documents.length === 0 ? (
          <EmptyState>No IEP documents are stored for this learner.</EmptyState>
        ) : (
          <Table regionLabel="IEP documents">
            <TableHeader>
              <TableRow>
                <TableHead>Title</TableHead>
                <TableHead>File</TableHead>
                <TableHead>Stored</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {documents.map((document) => (
                <TableRow key={document.id}>
                  <TableCell className="font-medium">{document.title}</TableCell>
                  <TableCell>
                    {document.file_name} · {size(document.size_bytes)}
                  </TableCell>
                  <TableCell>{new Date(document.uploaded_at).toLocaleDateString()}</TableCell>
                  <TableCell>
                    <div className="flex flex-wrap justify-end gap-2">
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={opening === document.id}
                        onClick={() => void open(document)}
                        aria-label={`Open ${document.title}`}
                      >
                        <Download aria-hidden="true" />
                        Open
                      </Button>
                      {learner.may_store && (
                        <Button
                          size="sm"
                          variant="outline"
                          onClick={(event) => setDeleting({ document, from: event.currentTarget })}
                          aria-label={`Delete ${document.title}`}
                        >
                          <Trash2 aria-hidden="true" />
                          Delete
                        </Button>
                      )}
                    </div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Section>
      {learner.may_store && (
        <UploadSection
          learner={learner}
          reason={reason}
          organizationId={organizationId}
          onStored={onChanged}
        />
      )}
      {deleting && (
        <DeleteDialog
          document={deleting.document}
          returnFocus={deleting.from}
          pending={remove.isPending}
          onCancel={() => setDeleting(null)}
          onDelete={() =>
            remove.mutate(
              { id: deleting.document.id, purpose: reason },
              {
                onSuccess: () => {
                  setDeleting(null);
                  toast.success('Document deleted.');
                  onChanged();
                },
                onError: (error) => toast.error(`Not deleted: ${error.message}`),
              },
            )
          }
        />
      )}
    </>
  );
}

function UploadSection({
  learner,
  reason,
  organizationId,
  onStored,
}: {
  learner: IepLearner;
  reason: string;
  organizationId: string;
  onStored: () => void;
}) {
  const upload = useUploadIepDocument();
  const [title, setTitle] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<{ title?: string; file?: string }>({});
  const fileInput = useRef<HTMLInputElement>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof errors = {};
    if (!title.trim()) found.title = 'Give the document a title.';
    if (!file) found.file = 'Choose the file to store.';
    else if (file.size > MAX_FILE_BYTES) found.file = 'The file is larger than 20 MB.';
    setErrors(found);
    if (found.title || found.file || !file) return;
    upload.mutate(
      { learnerId: learner.user_id, organizationId, title: title.trim(), purpose: reason, file },
      {
        onSuccess: () => {
          toast.success('Document stored.');
          setTitle('');
          setFile(null);
          if (fileInput.current) fileInput.current.value = '';
          onStored();
        },
        onError: (error) => toast.error(`Not stored: ${error.message}`),
      },
    );
  }

  return (
    <Section
      title="Store a document"
      id="iep-upload"
      className="min-w-0"
      description="PDF, Word, plain text or an image, up to 20 MB. Recorded with the reason above."
    >
      <form className="grid gap-4 sm:max-w-lg" onSubmit={submit} noValidate>
        <Field
          label="Title"
          value={title}
          maxLength={200}
          error={errors.title}
          onChange={(event) => setTitle(event.target.value)}
        />
        <Field
          ref={fileInput}
          label="File"
          type="file"
          accept=".pdf,.docx,.txt,.png,.jpg,.jpeg"
          error={errors.file}
          onChange={(event) => setFile(event.target.files?.[0] ?? null)}
        />
        <div>
          <Button type="submit" disabled={upload.isPending}>
            <FileUp aria-hidden="true" />
            {upload.isPending ? 'Storing…' : 'Store document'}
          </Button>
        </div>
      </form>
    </Section>
  );
}

function DeleteDialog({
  document,
  returnFocus,
  pending,
  onCancel,
  onDelete,
}: {
  document: IepDocument;
  returnFocus: HTMLElement;
  pending: boolean;
  onCancel: () => void;
  onDelete: () => void;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      open
      onOpenChange={(next) => {
        if (!next) onCancel();
      }}
    >
      <DialogContent
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          cancel.current?.focus();
        }}
        onCloseAutoFocus={(event) => {
          if (returnFocus.isConnected) {
            event.preventDefault();
            returnFocus.focus();
          }
        }}
      >
        <DialogHeader>
          <DialogTitle>Delete “{document.title}”?</DialogTitle>
          <DialogDescription>
            The file is removed for good. The HIPAA access log keeps the record that it was stored,
            opened and deleted, and by whom.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button ref={cancel} type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="button" variant="destructive" disabled={pending} onClick={onDelete}>
            {pending ? 'Deleting…' : 'Delete document'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
