/**
 * The organization's API keys (decision 0610): an admin names and creates a key, copies it from
 * the one place it is ever shown, and revokes keys that are no longer used. A key acts for this
 * organization only; the reference and the guide explain how to call the API with it.
 */
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Copy, KeyRound } from 'lucide-react';
import { toast } from 'sonner';
import { newApiKeySchema, type ApiKey, type CreatedApiKey } from '@common/api-keys';
import { publicApiPaths } from '@common/public-api-paths';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Label } from '@/components/ui/label';
import { Notice } from '@/components/ui/notice';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from './api/api-keys';
import { AdminOnly, type AdminWorkspace } from './admin-ui';
import { ConfirmDialog } from './user-dialogs';

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const when = (iso: string) => dateTime.format(new Date(iso));

export function ApiKeysPage() {
  return <AdminOnly title="API keys">{(workspace) => <ApiKeys workspace={workspace} />}</AdminOnly>;
}

function ApiKeys({ workspace }: { workspace: AdminWorkspace }) {
  const keys = useApiKeys(workspace.organizationId);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const inUse = keys.data?.keys.filter((key) => !key.revokedAt) ?? [];
  const revoked = keys.data?.keys.filter((key) => key.revokedAt) ?? [];

  return (
    <AppPage
      title="API keys"
      intro={
        <>
          Keys let {workspace.organizationName}&rsquo;s own systems use the API: its people,
          enrolments, progress, results and exports, and nothing of any other organization. See{' '}
          <Link className="font-medium text-primary underline underline-offset-4" to="/api-access">
            API Access
          </Link>{' '}
          for how to call it and the{' '}
          <a
            className="font-medium text-primary underline underline-offset-4"
            href={publicApiPaths.reference}
          >
            API reference
          </a>{' '}
          for every operation (also as an OpenAPI document,{' '}
          <a
            className="font-medium text-primary underline underline-offset-4"
            href={publicApiPaths.document}
          >
            {publicApiPaths.document}
          </a>
          ).
        </>
      }
    >
      {created ? (
        <NewKey created={created} onDone={() => setCreated(null)} />
      ) : (
        <CreateKey organizationId={workspace.organizationId} onCreated={setCreated} />
      )}
      <Section title="Keys in use" id="keys-in-use">
        {keys.isPending ? (
          <LoadingBlock label="Loading the keys…" />
        ) : keys.isError ? (
          <LoadError
            message={`Could not load the keys: ${keys.error.message}`}
            onRetry={() => void keys.refetch()}
          />
        ) : inUse.length === 0 ? (
          <EmptyState>
            No key is in use. Create one for each system that calls the API, so each can be revoked
            on its own.
          </EmptyState>
        ) : (
          <ul className="grid gap-2">
            {inUse.map((key) => (
              <KeyItem key={key.id} apiKey={key} organizationId={workspace.organizationId} />
            ))}
          </ul>
        )}
      </Section>
      {revoked.length > 0 && (
        <Section title="Revoked keys" id="revoked-keys">
          <ul className="grid gap-2">
            {revoked.map((key) => (
              <KeyItem key={key.id} apiKey={key} organizationId={workspace.organizationId} />
            ))}
          </ul>
        </Section>
      )}
    </AppPage>
  );
}

function CreateKey({
  organizationId,
  onCreated,
}: {
  organizationId: string;
  onCreated: (created: CreatedApiKey) => void;
}) {
  const create = useCreateApiKey(organizationId);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = newApiKeySchema.safeParse({ name });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    create.mutate(parsed.data.name, {
      onSuccess: (result) => {
        setName('');
        onCreated(result);
      },
      onError: (failure) => setError(failure.message),
    });
  }

  return (
    <Section title="Create a key" id="create-key">
      <form
        onSubmit={submit}
        noValidate
        className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end"
      >
        <Field
          label="Key name"
          hint="What will use it, for example “Registrar sync”. Names of keys in use are unique."
          value={name}
          maxLength={80}
          autoComplete="off"
          onChange={(event) => setName(event.target.value)}
          error={error}
        />
        <Button type="submit" disabled={create.isPending} className="sm:mb-[1.75rem]">
          <KeyRound aria-hidden="true" />
          {create.isPending ? 'Creating…' : 'Create key'}
        </Button>
      </form>
    </Section>
  );
}

function NewKey({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const secretId = 'new-api-key-secret';

  async function copy() {
    try {
      await navigator.clipboard.writeText(created.secret);
      toast.success('The key is on the clipboard.');
    } catch {
      toast.error('The browser did not allow copying: select the key and copy it by hand.');
    }
  }

  return (
    <Section title={`Your new key: ${created.key.name}`} id="new-key">
      <div className="grid gap-3">
        <Notice tone="success">
          Copy the key now and keep it in your secret store. It is shown only this once: Lyceum
          keeps only a fingerprint of it.
        </Notice>
        <div className="grid gap-2">
          <Label htmlFor={secretId}>The key</Label>
          <textarea
            id={secretId}
            readOnly
            rows={4}
            value={created.secret}
            onFocus={(event) => event.currentTarget.select()}
            className="w-full resize-none rounded-md border bg-muted p-2 font-mono text-xs break-all focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="button" onClick={() => void copy()}>
            <Copy aria-hidden="true" />
            Copy the key
          </Button>
          <Button type="button" variant="outline" onClick={onDone}>
            I have stored it
          </Button>
        </div>
      </div>
    </Section>
  );
}

function KeyItem({ apiKey, organizationId }: { apiKey: ApiKey; organizationId: string }) {
  const revoke = useRevokeApiKey(organizationId);
  const [confirming, setConfirming] = useState(false);

  function confirm() {
    revoke.mutate(apiKey.id, {
      onSuccess: () => {
        setConfirming(false);
        toast.success(`${apiKey.name} is revoked: requests with it are refused from now on.`);
      },
      onError: (failure) => toast.error(failure.message),
    });
  }

  return (
    <li className="grid gap-3 rounded-lg border p-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-medium break-words">
          {apiKey.name}
          {apiKey.revokedAt ? (
            <Badge variant="outline">Revoked</Badge>
          ) : (
            <Badge variant="default">In use</Badge>
          )}
        </p>
        <p className="text-sm text-muted-foreground">
          {apiKey.hint && (
            <>
              Ends in <span className="font-mono">…{apiKey.hint}</span> ·{' '}
            </>
          )}
          Created {when(apiKey.createdAt)}
          {apiKey.createdBy ? ` by ${apiKey.createdBy}` : ''} ·{' '}
          {apiKey.lastUsedAt ? `last used ${when(apiKey.lastUsedAt)}` : 'never used'}
          {apiKey.revokedAt ? ` · revoked ${when(apiKey.revokedAt)}` : ''}
        </p>
      </div>
      {!apiKey.revokedAt && (
        <div className="flex sm:justify-end">
          <Button size="sm" variant="outline" onClick={() => setConfirming(true)}>
            Revoke<span className="sr-only"> {apiKey.name}</span>
          </Button>
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            title={`Revoke ${apiKey.name}?`}
            description="Every request made with this key is refused from now on. The systems that use it stop working until they get a new key. This cannot be undone."
            confirmLabel={revoke.isPending ? 'Revoking…' : 'Revoke the key'}
            pending={revoke.isPending}
            onConfirm={confirm}
          />
        </div>
      )}
    </li>
  );
}
