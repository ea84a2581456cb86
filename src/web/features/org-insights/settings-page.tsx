/**
 * The organization's settings: its name (organization admins) and its address, the slug (the
 * owner only, decision 0136). The plan is shown, not edited: it follows the subscription.
 */
import { useState, type FormEvent } from 'react';
import { Loader2 } from 'lucide-react';
import { toast } from 'sonner';
import { AppPage, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import {
  useOrganizationSettings,
  type OrganizationSettings,
} from './api/get-organization-settings';
import { useUpdateOrganization } from './api/update-organization';
import { Field } from '@/components/ui/field';
import { AdminOnly, type AdminContext } from './insights-ui';
import { fieldErrors, settingsSchema, type FieldErrors } from './organization-schemas';

const tierLabels: Record<OrganizationSettings['tier'], string> = {
  free: 'Free',
  pro: 'Pro',
  enterprise: 'Enterprise',
};

export function SettingsPage() {
  return (
    <AdminOnly title="Organization settings">
      {(admin) => <OrganizationSettingsScreen admin={admin} />}
    </AdminOnly>
  );
}

function OrganizationSettingsScreen({ admin }: { admin: AdminContext }) {
  const settings = useOrganizationSettings(admin.userId, admin.organizationId);
  // Held here, not in the form: a save changes `updatedAt`, which mounts a new form (its key)
  // before the save resolves, and TanStack Query drops `mutate`'s callbacks of an unmounted
  // component, so a form-owned mutation's confirmation depended on render timing.
  const update = useUpdateOrganization();
  return (
    <AppPage title="Organization settings" intro="What your organization is called and where.">
      {settings.isPending ? (
        <LoadingBlock label="Loading the settings…" />
      ) : settings.isError ? (
        <LoadError
          message={`Could not load the settings: ${settings.error.message}`}
          onRetry={() => void settings.refetch()}
        />
      ) : (
        <SettingsForm
          key={`${settings.data.id}:${settings.data.updatedAt}`}
          admin={admin}
          settings={settings.data}
          update={update}
        />
      )}
    </AppPage>
  );
}

function SettingsForm({
  admin,
  settings,
  update,
}: {
  admin: AdminContext;
  settings: OrganizationSettings;
  update: ReturnType<typeof useUpdateOrganization>;
}) {
  const [name, setName] = useState(settings.name);
  const [slug, setSlug] = useState(settings.slug);
  const [errors, setErrors] = useState<FieldErrors<'name' | 'slug'>>({});
  const [failure, setFailure] = useState<string>();
  const owner = admin.access.owner;

  function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(undefined);
    const parsed = settingsSchema.safeParse({ name, slug: owner ? slug : settings.slug });
    if (!parsed.success) {
      setErrors(fieldErrors<'name' | 'slug'>(parsed.error));
      return;
    }
    setErrors({});
    const change: { name?: string; slug?: string } = {};
    if (parsed.data.name !== settings.name) change.name = parsed.data.name;
    if (owner && parsed.data.slug !== settings.slug) change.slug = parsed.data.slug;
    if (Object.keys(change).length === 0) {
      toast.info('Nothing to save: the settings are as they were.');
      return;
    }
    update.mutate(
      { userId: admin.userId, organizationId: admin.organizationId, change },
      {
        onSuccess: () => toast.success('Organization settings saved.'),
        onError: (err) => {
          if (/address/i.test(err.message)) setErrors({ slug: err.message });
          else if (/name/i.test(err.message)) setErrors({ name: err.message });
          else setFailure(err.message);
          toast.error(`The settings were not saved: ${err.message}`);
        },
      },
    );
  }

  return (
    <Section title="Organization" id="organization-settings">
      <form noValidate onSubmit={submit} className="grid max-w-lg gap-4">
        <Field
          label="Name"
          name="name"
          autoComplete="organization"
          maxLength={200}
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={errors.name}
          hint="Shown to every member in the workspace switcher and on the screens."
        />
        <Field
          label="Address (slug)"
          name="slug"
          maxLength={63}
          value={slug}
          readOnly={!owner}
          onChange={(event) => setSlug(event.target.value)}
          error={errors.slug}
          hint={
            owner
              ? 'The organization’s unique short name: lower-case letters, digits and single hyphens. Anything that refers to the old one must be told the new one.'
              : 'Only the organization’s owner changes the address.'
          }
        />
        <dl className="grid gap-1 text-sm">
          <dt className="font-medium">Plan</dt>
          <dd className="text-muted-foreground">
            {tierLabels[settings.tier]}, set by the organization’s subscription.
          </dd>
        </dl>
        {failure && <Notice tone="error">{failure}</Notice>}
        <div>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending && <Loader2 aria-hidden="true" className="animate-spin" />}
            {update.isPending ? 'Saving…' : 'Save settings'}
          </Button>
        </div>
      </form>
    </Section>
  );
}
