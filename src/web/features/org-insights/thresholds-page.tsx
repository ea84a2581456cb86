/**
 * The organization's thresholds: how many wrong answers in a row the study coach allows before
 * it pauses and offers a refresher (1–10, default 3). Organization admins change it.
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
import { THRESHOLD_DEFAULT, fieldErrors, thresholdSchema } from './organization-schemas';

export function ThresholdsPage() {
  return <AdminOnly title="Thresholds">{(admin) => <Thresholds admin={admin} />}</AdminOnly>;
}

function Thresholds({ admin }: { admin: AdminContext }) {
  const settings = useOrganizationSettings(admin.userId, admin.organizationId);
  // Held here, not in the form: a save changes `updatedAt`, which mounts a new form (its key)
  // before the save resolves, and TanStack Query drops `mutate`'s callbacks of an unmounted
  // component, so a form-owned mutation's confirmation depended on render timing.
  const update = useUpdateOrganization();
  return (
    <AppPage
      title="Thresholds"
      intro={`How the study coach responds to struggling learners at ${admin.organizationName}.`}
    >
      {settings.isPending ? (
        <LoadingBlock label="Loading the thresholds…" />
      ) : settings.isError ? (
        <LoadError
          message={`Could not load the thresholds: ${settings.error.message}`}
          onRetry={() => void settings.refetch()}
        />
      ) : (
        <ThresholdForm
          key={`${settings.data.id}:${settings.data.updatedAt}`}
          admin={admin}
          settings={settings.data}
          update={update}
        />
      )}
    </AppPage>
  );
}

function ThresholdForm({
  admin,
  settings,
  update,
}: {
  admin: AdminContext;
  settings: OrganizationSettings;
  update: ReturnType<typeof useUpdateOrganization>;
}) {
  const [value, setValue] = useState(String(settings.struggleThreshold));
  const [error, setError] = useState<string>();
  const [failure, setFailure] = useState<string>();

  function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(undefined);
    const parsed = thresholdSchema.safeParse({ struggleThreshold: value });
    if (!parsed.success) {
      setError(fieldErrors<'struggleThreshold'>(parsed.error).struggleThreshold);
      return;
    }
    setError(undefined);
    const threshold = parsed.data.struggleThreshold;
    update.mutate(
      {
        userId: admin.userId,
        organizationId: admin.organizationId,
        change: { struggle_threshold: threshold },
      },
      {
        onSuccess: () =>
          toast.success(`Struggle threshold set to ${threshold} wrong answers in a row.`),
        onError: (err) => {
          setFailure(err.message);
          toast.error(`The threshold was not saved: ${err.message}`);
        },
      },
    );
  }

  return (
    <Section title="Struggle threshold" id="struggle-threshold">
      <form noValidate onSubmit={submit} className="grid max-w-md gap-4">
        <Field
          label="Wrong answers in a row before the coach offers a refresher"
          name="struggleThreshold"
          type="number"
          inputMode="numeric"
          min={1}
          max={10}
          step={1}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          error={error}
          hint={`A whole number from 1 to 10; the default is ${THRESHOLD_DEFAULT}. Lower numbers step in sooner; higher ones give learners longer to work it out. Now: ${settings.struggleThreshold}.`}
        />
        <Notice tone="info">
          The study coach uses the threshold saved here: after this many wrong answers in a row it
          pauses and offers the learner a refresher on the basics.
        </Notice>
        {failure && <Notice tone="error">{failure}</Notice>}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={update.isPending}>
            {update.isPending && <Loader2 aria-hidden="true" className="animate-spin" />}
            {update.isPending ? 'Saving…' : 'Save threshold'}
          </Button>
          <Button
            type="button"
            variant="outline"
            disabled={update.isPending || value === String(THRESHOLD_DEFAULT)}
            onClick={() => {
              setValue(String(THRESHOLD_DEFAULT));
              setError(undefined);
            }}
          >
            Use the default ({THRESHOLD_DEFAULT})
          </Button>
        </div>
      </form>
    </Section>
  );
}
