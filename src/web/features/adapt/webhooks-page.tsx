/**
 * LE Adapt's webhook settings at /app/adapt?view=webhooks (decisions 0514, 0516), for the
 * organization's Admins: the endpoint (added, edited, deleted), the events it takes, its signing
 * secret shown once when it is made, a test delivery that goes through the SSRF guard like every
 * other, and the organization's delivery log.
 */
import { useId, useState, type FormEvent } from 'react';
import { Copy, Send, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { AppPage, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { useAppSession } from '@/lib/app-session';
import { WEBHOOK_EVENTS, type WebhookEvent } from '@common/adapt-outputs';
import {
  useDeleteEndpoint,
  useSaveEndpoint,
  useSendTest,
  useWebhookEndpoint,
  type WebhookEndpoint,
} from './api/adapt-outputs';
import { adminWorkspace, type AdminWorkspace } from './adapt-labels';
import { DeliveryLog } from './delivery-log';

const EVENT_CHOICES: Record<WebhookEvent, { label: string; hint: string }> = {
  'lesson.exported': {
    label: 'Lesson exported',
    hint: "When a lesson's exports are ready, and when someone sends them: links to the SCORM packages and every other file.",
  },
  'lesson.approved': {
    label: 'Lesson approved',
    hint: "When a Reviewer approves a lesson: its title, profile, reading grade and the reviewer's note.",
  },
  'lesson.published': {
    label: 'Lesson published',
    hint: 'When a lesson is published into a course: the course, the new lesson and how many bank questions.',
  },
};

export function AdaptWebhooksPage() {
  const { workspace } = useAppSession();
  const admin = adminWorkspace(workspace);
  return (
    <AppPage
      title="Webhook settings"
      intro="Send LE Adapt's lessons to your university's or client's learning system: each delivery is signed with HMAC-SHA256, retried with back-off and logged."
      back={{ to: '/app/adapt', label: 'LE Adapt' }}
    >
      {admin ? (
        <Settings workspace={admin} />
      ) : (
        <Notice tone="info">
          {workspace.kind === 'organization'
            ? `Only the Admins of ${workspace.organizationName} set its webhook. Ask one of them, or switch to an organization you administer.`
            : 'Webhooks deliver to an organization’s learning system: switch to an organization you administer to set one up.'}
        </Notice>
      )}
    </AppPage>
  );
}

function Settings({ workspace }: { workspace: AdminWorkspace }) {
  const endpoint = useWebhookEndpoint(workspace.organizationId);
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <>
      <Section
        title="Endpoint"
        id="endpoint"
        description={`Where ${workspace.organizationName}'s deliveries go. Private, loopback and link-local addresses are refused unless the server's operator allows them.`}
      >
        {endpoint.isPending ? (
          <LoadingBlock label="Loading the endpoint…" />
        ) : endpoint.isError ? (
          <LoadError
            message={`Could not load the endpoint: ${endpoint.error.message}`}
            onRetry={() => void endpoint.refetch()}
          />
        ) : (
          <div className="grid gap-4">
            {secret && <SecretOnce secret={secret} onDone={() => setSecret(null)} />}
            <EndpointForm
              key={endpoint.data?.updated_at ?? 'new'}
              organizationId={workspace.organizationId}
              endpoint={endpoint.data}
              onSecret={setSecret}
            />
          </div>
        )}
      </Section>
      <Section
        title="Delivery log"
        id="delivery-log"
        description="Every delivery to the endpoint: its status, attempts, the latest response code and when the next retry is due."
      >
        <DeliveryLog
          scope={{ organizationId: workspace.organizationId }}
          canRedeliver
          label="Deliveries"
        />
      </Section>
    </>
  );
}

function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  const id = useId();
  return (
    <div
      className="grid gap-2 rounded-md border border-primary/40 bg-muted p-3 text-sm"
      role="status"
    >
      <p id={id} className="font-medium">
        The signing secret. Copy it now: it is not shown again.
      </p>
      <p className="text-muted-foreground">
        Your learning system checks X-Lyceum-Signature: sha256= the HMAC-SHA256 of the
        X-Lyceum-Timestamp, a dot and the body, under this secret.
      </p>
      <code aria-labelledby={id} className="rounded-sm bg-background p-2 font-mono break-all">
        {secret}
      </code>
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          variant="outline"
          onClick={() =>
            void navigator.clipboard.writeText(secret).then(
              () => toast.success('The secret is copied.'),
              () =>
                toast.error('The browser did not allow copying: select the secret and copy it.'),
            )
          }
        >
          <Copy aria-hidden="true" />
          Copy secret
        </Button>
        <Button size="sm" variant="outline" onClick={onDone}>
          I have stored it
        </Button>
      </div>
    </div>
  );
}

function EndpointForm({
  organizationId,
  endpoint,
  onSecret,
}: {
  organizationId: string;
  endpoint: WebhookEndpoint | null;
  onSecret: (secret: string) => void;
}) {
  const save = useSaveEndpoint(organizationId);
  const test = useSendTest(organizationId);
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [active, setActive] = useState(endpoint?.active ?? true);
  const [events, setEvents] = useState<WebhookEvent[]>(endpoint?.events ?? ['lesson.exported']);
  const [rotate, setRotate] = useState(false);
  const [errors, setErrors] = useState<{ url?: string; events?: string; form?: string }>({});
  const [deleting, setDeleting] = useState(false);
  const eventsErrorId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof errors = {};
    if (!/^https?:\/\/\S+$/i.test(url.trim())) {
      found.url = 'Enter the full address, starting with https:// (or http://).';
    }
    if (events.length === 0) found.events = 'Choose at least one event to send.';
    setErrors(found);
    if (found.url || found.events) return;
    save.mutate(
      { url: url.trim(), active, events, rotateSecret: rotate },
      {
        onSuccess: (saved) => {
          toast.success(endpoint ? 'The endpoint is saved.' : 'The endpoint is added.');
          if (saved.secret) onSecret(saved.secret);
        },
        onError: (e) => setErrors({ form: e.message }),
      },
    );
  }

  function toggle(choice: WebhookEvent, on: boolean) {
    setEvents((current) =>
      on
        ? WEBHOOK_EVENTS.filter((e) => e === choice || current.includes(e))
        : current.filter((e) => e !== choice),
    );
  }

  return (
    <>
      <form className="grid max-w-2xl gap-4" noValidate onSubmit={submit} aria-label="Endpoint">
        {errors.form && <Notice tone="error">{errors.form}</Notice>}
        <Field
          label="Endpoint URL"
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://lms.example.edu/hooks/lyceum"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          error={errors.url}
          maxLength={2048}
        />
        <fieldset
          className="grid gap-2"
          aria-describedby={errors.events ? eventsErrorId : undefined}
        >
          <legend className="text-sm font-medium">Events to send</legend>
          {WEBHOOK_EVENTS.map((choice) => (
            <label key={choice} className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                checked={events.includes(choice)}
                onChange={(e) => toggle(choice, e.target.checked)}
                className="mt-0.5 size-4 shrink-0 accent-primary"
              />
              <span>
                <span className="font-medium">{EVENT_CHOICES[choice].label}</span>{' '}
                <code className="text-xs">{choice}</code>
                <span className="block text-muted-foreground">{EVENT_CHOICES[choice].hint}</span>
              </span>
            </label>
          ))}
          {errors.events && (
            <p id={eventsErrorId} className="text-sm text-destructive">
              {errors.events}
            </p>
          )}
        </fieldset>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={active}
            onChange={(e) => setActive(e.target.checked)}
            className="size-4 accent-primary"
          />
          Active: send deliveries to this endpoint
        </label>
        {endpoint && (
          <label className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              checked={rotate}
              onChange={(e) => setRotate(e.target.checked)}
              className="mt-0.5 size-4 accent-primary"
            />
            <span>
              Make a new signing secret{' '}
              <span className="block text-muted-foreground">
                The old one stops working at once; your learning system needs the new one.
              </span>
            </span>
          </label>
        )}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : endpoint ? 'Save endpoint' : 'Add endpoint'}
          </Button>
          {endpoint && (
            <>
              <Button
                type="button"
                variant="outline"
                disabled={test.isPending}
                onClick={() =>
                  test.mutate(undefined, {
                    onSuccess: () =>
                      toast.success('A test delivery is on its way: see the delivery log.'),
                    onError: (e) => toast.error(e.message),
                  })
                }
              >
                <Send aria-hidden="true" />
                Send a test
              </Button>
              <Button type="button" variant="outline" onClick={() => setDeleting(true)}>
                <Trash2 aria-hidden="true" />
                Delete endpoint
              </Button>
            </>
          )}
        </div>
        {endpoint && (
          <p className="text-sm text-muted-foreground">
            The signing secret was shown when it was made and cannot be shown again; make a new one
            if it is lost.
          </p>
        )}
      </form>
      {deleting && endpoint && (
        <DeleteDialog
          organizationId={organizationId}
          url={endpoint.url}
          onClose={() => setDeleting(false)}
        />
      )}
    </>
  );
}

function DeleteDialog({
  organizationId,
  url,
  onClose,
}: {
  organizationId: string;
  url: string;
  onClose: () => void;
}) {
  const remove = useDeleteEndpoint(organizationId);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Delete the endpoint?</DialogTitle>
          <DialogDescription>
            Nothing more is sent to {url}, and deliveries still being retried fail. The delivery log
            stays.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose}>
            Keep it
          </Button>
          <Button
            type="button"
            variant="destructive"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(undefined, {
                onSuccess: () => {
                  toast.success('The endpoint is deleted.');
                  onClose();
                },
                onError: (e) => toast.error(e.message),
              })
            }
          >
            Delete endpoint
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
