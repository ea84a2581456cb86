/**
 * The organization's SAML single sign-on (decision 0034): what to give the identity provider
 * (our entity ID, ACS and metadata URL), and the organization's providers, each registered from
 * its metadata URL or pasted XML with the email domains that lead to it and the names of the
 * attributes it sends. People who sign in through it for the first time join the organization
 * as students (or the role the role attribute names).
 */
import { useId, useState, type FormEvent } from 'react';
import { Copy, ShieldCheck } from 'lucide-react';
import { toast } from 'sonner';
import { ssoMappedClaims, type SsoProvider, type SsoProviderInput } from '@common/sso';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Label } from '@/components/ui/label';
import { Notice } from '@/components/ui/notice';
import { Textarea } from '@/components/ui/textarea';
import { useRemoveSsoProvider, useSaveSsoProvider, useSsoSettings } from './api/sso-providers';
import { AdminOnly, type AdminWorkspace } from './admin-ui';
import { ConfirmDialog } from './user-dialogs';

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

export function SsoPage() {
  return (
    <AdminOnly title="Single sign-on">
      {(workspace) =>
        workspace.boardAdminOnly ? (
          <AppPage title="Single sign-on">
            <Notice tone="info">
              Single sign-on signs people into the whole organization, so its owner or an
              organization-wide admin sets it up.
            </Notice>
          </AppPage>
        ) : (
          <SingleSignOn workspace={workspace} />
        )
      }
    </AdminOnly>
  );
}

function SingleSignOn({ workspace }: { workspace: AdminWorkspace }) {
  const settings = useSsoSettings(workspace.organizationId);
  const [adding, setAdding] = useState(false);
  return (
    <AppPage
      title="Single sign-on"
      intro={
        <>
          Let {workspace.organizationName}&rsquo;s people sign in with their institution account
          through your SAML 2.0 identity provider. Someone signing in for the first time gets an
          account and joins the organization as a student, unless the role attribute names another
          role.
        </>
      }
    >
      {settings.isPending ? (
        <LoadingBlock label="Loading single sign-on…" />
      ) : settings.isError ? (
        <LoadError
          message={`Could not load single sign-on: ${settings.error.message}`}
          onRetry={() => void settings.refetch()}
        />
      ) : (
        <>
          <Section
            title="For your identity provider"
            id="sp-details"
            description="Register Lyceum as a service provider (relying party) at your IdP with these values, or give it the metadata URL."
          >
            <dl className="grid gap-3">
              <CopyValue label="Metadata URL" value={settings.data.serviceProvider.metadataUrl} />
              <CopyValue label="Entity ID" value={settings.data.serviceProvider.entityId} />
              <CopyValue
                label="Assertion consumer service (ACS) URL, HTTP-POST"
                value={settings.data.serviceProvider.acsUrl}
              />
            </dl>
            <p className="mt-3 text-sm text-muted-foreground">
              Send a persistent NameID, sign the assertion or the response, and include the
              attributes <span className="font-mono">email</span>,{' '}
              <span className="font-mono">firstName</span> and{' '}
              <span className="font-mono">lastName</span> (or map your own names below).
            </p>
          </Section>
          <Section title="Identity providers" id="providers">
            {settings.data.providers.length === 0 && !adding ? (
              <EmptyState
                action={
                  <Button onClick={() => setAdding(true)}>
                    <ShieldCheck aria-hidden="true" />
                    Add an identity provider
                  </Button>
                }
              >
                No identity provider is registered, so nobody signs in with single sign-on yet.
              </EmptyState>
            ) : (
              <ul className="grid gap-3">
                {settings.data.providers.map((provider) => (
                  <ProviderItem
                    key={provider.id}
                    provider={provider}
                    organizationId={workspace.organizationId}
                  />
                ))}
              </ul>
            )}
            {settings.data.providers.length > 0 && !adding && (
              <Button variant="outline" className="mt-3" onClick={() => setAdding(true)}>
                Add another identity provider
              </Button>
            )}
            {adding && (
              <div className="mt-3 rounded-lg border p-3">
                <h3 className="mb-3 font-medium">New identity provider</h3>
                <ProviderForm
                  organizationId={workspace.organizationId}
                  onDone={() => setAdding(false)}
                />
              </div>
            )}
          </Section>
        </>
      )}
    </AppPage>
  );
}

function CopyValue({ label, value }: { label: string; value: string }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      toast.success(`${label} copied.`);
    } catch {
      toast.error('The browser did not allow copying: select the text and copy it by hand.');
    }
  }
  return (
    <div className="grid gap-1">
      <dt className="text-sm font-medium">{label}</dt>
      <dd className="flex flex-wrap items-center justify-between gap-2">
        <span className="min-w-0 font-mono text-sm break-all">{value}</span>
        <Button size="sm" variant="outline" onClick={() => void copy()}>
          <Copy aria-hidden="true" />
          Copy<span className="sr-only"> {label}</span>
        </Button>
      </dd>
    </div>
  );
}

function ProviderItem({
  provider,
  organizationId,
}: {
  provider: SsoProvider;
  organizationId: string;
}) {
  const remove = useRemoveSsoProvider(organizationId);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const domains = provider.domains.map((d) => d.domain);

  function confirm() {
    remove.mutate(provider.id, {
      onSuccess: () => {
        setConfirming(false);
        toast.success('The identity provider is removed: nobody signs in through it any more.');
      },
      onError: (failure) => toast.error(failure.message),
    });
  }

  return (
    <li className="grid gap-3 rounded-lg border p-3">
      <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-start">
        <div className="min-w-0">
          <p className="font-medium break-all">{provider.saml.entity_id}</p>
          <p className="mt-1 flex flex-wrap gap-1.5">
            {domains.length > 0 ? (
              domains.map((domain) => (
                <Badge key={domain} variant="outline">
                  {domain}
                </Badge>
              ))
            ) : (
              <span className="text-sm text-muted-foreground">No email domains</span>
            )}
          </p>
          <p className="mt-1 text-sm text-muted-foreground">
            {provider.saml.metadata_url
              ? `Metadata from ${provider.saml.metadata_url}`
              : 'Metadata pasted'}{' '}
            · updated {dateTime.format(new Date(provider.updated_at))}
          </p>
        </div>
        {!editing && (
          <div className="flex flex-wrap gap-2 sm:justify-end">
            <Button size="sm" variant="outline" onClick={() => setEditing(true)}>
              Edit<span className="sr-only"> {provider.saml.entity_id}</span>
            </Button>
            <Button size="sm" variant="outline" onClick={() => setConfirming(true)}>
              Remove<span className="sr-only"> {provider.saml.entity_id}</span>
            </Button>
          </div>
        )}
      </div>
      {editing && (
        <ProviderForm
          organizationId={organizationId}
          provider={provider}
          onDone={() => setEditing(false)}
        />
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Remove this identity provider?"
        description="People can no longer sign in through it. Their accounts stay; they can reset a password to sign in another way. You can register the provider again later."
        confirmLabel={remove.isPending ? 'Removing…' : 'Remove the provider'}
        pending={remove.isPending}
        onConfirm={confirm}
      />
    </li>
  );
}

type MetadataSource = 'url' | 'xml';

function ProviderForm({
  organizationId,
  provider,
  onDone,
}: {
  organizationId: string;
  provider?: SsoProvider;
  onDone: () => void;
}) {
  const save = useSaveSsoProvider(organizationId);
  const xmlId = useId();
  const [source, setSource] = useState<MetadataSource>(
    provider && !provider.saml.metadata_url ? 'xml' : 'url',
  );
  const [metadataUrl, setMetadataUrl] = useState(provider?.saml.metadata_url ?? '');
  const [metadataXml, setMetadataXml] = useState('');
  const [domains, setDomains] = useState(provider?.domains.map((d) => d.domain).join(', ') ?? '');
  const [mapping, setMapping] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      ssoMappedClaims.map(({ claim, fallback }) => [
        claim,
        provider?.saml.attribute_mapping.keys?.[claim]?.name ?? (provider ? '' : fallback),
      ]),
    ),
  );
  const [error, setError] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    const url = metadataUrl.trim();
    const xml = metadataXml.trim();
    if (!provider && source === 'url' && !url) {
      setError('Enter the URL of your identity provider’s metadata, or paste the metadata.');
      return;
    }
    if (!provider && source === 'xml' && !xml) {
      setError('Paste your identity provider’s metadata XML, or give its URL.');
      return;
    }
    const keys: SsoProviderInput['attribute_mapping']['keys'] = {};
    for (const { claim } of ssoMappedClaims) {
      const name = mapping[claim]?.trim();
      if (name) keys[claim] = { name };
    }
    const input: SsoProviderInput = {
      ...(source === 'url' && url && url !== provider?.saml.metadata_url
        ? { metadata_url: url }
        : {}),
      ...(source === 'xml' && xml ? { metadata_xml: xml } : {}),
      domains: domains
        .split(/[\s,;]+/)
        .map((d) => d.trim())
        .filter(Boolean),
      attribute_mapping: { keys },
    };
    setError(undefined);
    save.mutate(
      { id: provider?.id, input },
      {
        onSuccess: (saved) => {
          toast.success(
            provider
              ? 'The identity provider is saved.'
              : `${saved.saml.entity_id} is registered: people of its domains can sign in with SSO.`,
          );
          onDone();
        },
        onError: (failure) => setError(failure.message),
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Metadata</legend>
        <div className="flex flex-wrap gap-4">
          {(['url', 'xml'] as const).map((value) => (
            <label key={value} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name={`metadata-source-${provider?.id ?? 'new'}`}
                value={value}
                checked={source === value}
                onChange={() => setSource(value)}
                className="size-4 accent-primary"
              />
              {value === 'url' ? 'From a URL' : 'Paste the XML'}
            </label>
          ))}
        </div>
        {source === 'url' ? (
          <Field
            label="Metadata URL"
            hint={
              provider
                ? 'Saving fetches it again, so a new signing certificate is picked up.'
                : 'An HTTPS address where your IdP publishes its SAML metadata.'
            }
            type="url"
            value={metadataUrl}
            onChange={(event) => setMetadataUrl(event.target.value)}
            placeholder="https://idp.university.example/metadata"
          />
        ) : (
          <div className="grid gap-2">
            <Label htmlFor={xmlId}>Metadata XML</Label>
            <Textarea
              id={xmlId}
              rows={6}
              value={metadataXml}
              onChange={(event) => setMetadataXml(event.target.value)}
              placeholder={
                provider ? 'Leave empty to keep the metadata as it is' : '<EntityDescriptor …'
              }
              className="font-mono text-xs"
            />
          </div>
        )}
      </fieldset>
      <Field
        label="Email domains"
        hint="People whose address ends in one of these (separated by commas) sign in through this provider. A domain belongs to one organization."
        value={domains}
        onChange={(event) => setDomains(event.target.value)}
        placeholder="university.example"
        autoComplete="off"
      />
      <fieldset className="grid gap-3 sm:grid-cols-2">
        <legend className="mb-1 text-sm font-medium">Attribute names sent by your IdP</legend>
        {ssoMappedClaims.map(({ claim, label, fallback }) => (
          <Field
            key={claim}
            label={label}
            hint={
              claim === 'role'
                ? 'Its value may be learner, instructor, org_admin or compliance_officer; anything else makes a student.'
                : `Empty means the usual names (${fallback} and its LDAP and Microsoft forms).`
            }
            value={mapping[claim] ?? ''}
            onChange={(event) => setMapping({ ...mapping, [claim]: event.target.value })}
            autoComplete="off"
          />
        ))}
      </fieldset>
      {error && <Notice tone="error">{error}</Notice>}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : provider ? 'Save changes' : 'Register the provider'}
        </Button>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
