/**
 * The privacy page's consent section: the categories as switches, saved to the account
 * (a switch turned off is recorded as a withdrawal) and to this browser, which then clears
 * what the withdrawn categories had stored.
 */
import { useState } from 'react';
import { Loader2 } from 'lucide-react';
import { toast } from 'sonner';
import { rejectAllChoices, type ConsentChoices } from '@common/consent';
import { LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import type { ConsentRecord } from '@/lib/consent-state';
import { useSaveConsentSettings, useServerConsent } from './api/consent';
import { ConsentChoiceList } from './consent-choices';

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

export function ConsentSettings({ userId }: { userId: string }) {
  const consent = useServerConsent(userId);
  return (
    <Section
      title="Cookies and storage"
      id="consent-settings"
      description="What Lyceum may keep in this browser. Essential storage is always on; the rest is your choice, and you can withdraw it at any time."
    >
      {consent.isPending ? (
        <LoadingBlock label="Loading your choices…" />
      ) : consent.isError ? (
        <LoadError
          message={`Could not load your choices: ${consent.error.message}`}
          onRetry={() => void consent.refetch()}
        />
      ) : (
        <ConsentForm key={consent.data?.decidedAt ?? 'none'} userId={userId} saved={consent.data} />
      )}
    </Section>
  );
}

function ConsentForm({ userId, saved }: { userId: string; saved: ConsentRecord | null }) {
  const [choices, setChoices] = useState<ConsentChoices>(saved?.choices ?? rejectAllChoices);
  const save = useSaveConsentSettings(userId);

  return (
    <form
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(
          { before: saved?.choices ?? null, after: choices },
          {
            onSuccess: () => toast.success('Your privacy choices are saved.'),
            onError: (error) => toast.error(`Your choices were not saved: ${error.message}`),
          },
        );
      }}
    >
      {saved ? (
        <p className="text-sm text-muted-foreground">
          Last changed {dateTime.format(new Date(saved.decidedAt))} (policy version{' '}
          {saved.policyVersion}).
        </p>
      ) : (
        <Notice tone="info">
          You have not made a choice on this account yet: nothing optional is on.
        </Notice>
      )}
      <ConsentChoiceList choices={choices} onChange={setChoices} />
      {save.isError && <Notice tone="error">Not saved: {save.error.message}</Notice>}
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending && <Loader2 aria-hidden="true" className="animate-spin" />}
          Save choices
        </Button>
      </div>
    </form>
  );
}
