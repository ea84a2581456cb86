/**
 * Legal holds (decision 0423), for platform admins: place a hold on a person (by email or user
 * id) with the reason, release it with the reason. While a hold is active an erasure of the
 * person is refused; exports still work. Placing and releasing are audited.
 */
import { useState, type FormEvent } from 'react';
import { Lock, LockOpen } from 'lucide-react';
import { toast } from 'sonner';
import { EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { useChangeLegalHold, useLegalHolds, type LegalHold } from './api/legal-holds';
import { Identifier, utc } from './identifier';

export function LegalHoldsPanel({ userId }: { userId: string }) {
  const holds = useLegalHolds(userId);
  const change = useChangeLegalHold(userId);
  const [person, setPerson] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ person?: string; reason?: string }>({});

  function place(event: FormEvent) {
    event.preventDefault();
    const found: typeof errors = {};
    if (!person.trim()) found.person = 'Name the person by their email or user id.';
    if (reason.trim().length < 3)
      found.reason = 'Say why the data must be kept (at least 3 characters).';
    setErrors(found);
    if (found.person || found.reason) return;
    change.mutate(
      { kind: 'place', person: person.trim(), reason: reason.trim() },
      {
        onSuccess: () => {
          toast.success(
            'Legal hold placed: erasure of this person is refused until it is released.',
          );
          setPerson('');
          setReason('');
        },
        onError: (error) => toast.error(`Not placed: ${error.message}`),
      },
    );
  }

  return (
    <Section
      title="Legal holds"
      id="legal-holds"
      className="min-w-0"
      description="A person under a legal hold cannot be erased; their data can still be exported. Placing and releasing a hold are recorded in the audit log."
    >
      <form className="grid gap-4 sm:max-w-lg" onSubmit={place} noValidate>
        <Field
          label="Person (email or user id)"
          value={person}
          error={errors.person}
          onChange={(event) => setPerson(event.target.value)}
        />
        <Field
          label="Reason for the hold"
          value={reason}
          maxLength={500}
          error={errors.reason}
          onChange={(event) => setReason(event.target.value)}
        />
        <div>
          <Button type="submit" disabled={change.isPending}>
            <Lock aria-hidden="true" />
            Place hold
          </Button>
        </div>
      </form>
      <div className="mt-6">
        {holds.isPending ? (
          <LoadingBlock label="Loading legal holds…" />
        ) : holds.isError ? (
          <LoadError
            message={`Could not load legal holds: ${holds.error.message}`}
            onRetry={() => void holds.refetch()}
          />
        ) : holds.data.length === 0 ? (
          <EmptyState>No legal holds have been placed.</EmptyState>
        ) : (
          <ul className="grid gap-3" aria-label="Legal holds">
            {holds.data.map((hold) => (
              <HoldItem key={hold.id} hold={hold} userId={userId} />
            ))}
          </ul>
        )}
      </div>
    </Section>
  );
}

function HoldItem({ hold, userId }: { hold: LegalHold; userId: string }) {
  const change = useChangeLegalHold(userId);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const who = hold.email ?? hold.user_id;

  function release(event: FormEvent) {
    event.preventDefault();
    if (reason.trim().length < 3) {
      setError('Say why the hold ends (at least 3 characters).');
      return;
    }
    setError(undefined);
    change.mutate(
      { kind: 'release', person: hold.user_id, reason: reason.trim() },
      {
        onSuccess: () => toast.success(`Legal hold on ${who} released.`),
        onError: (failure) => toast.error(`Not released: ${failure.message}`),
      },
    );
  }

  return (
    <li className="rounded-lg border p-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium break-all">
          {hold.email ?? <Identifier value={hold.user_id} />}
        </span>
        <Badge variant={hold.released_at ? 'outline' : 'secondary'}>
          {hold.released_at ? 'Released' : 'Active'}
        </Badge>
      </div>
      <p className="mt-1">{hold.reason}</p>
      <p className="mt-1 text-muted-foreground">
        Placed {utc(hold.placed_at)}
        {hold.placed_by_email ? ` by ${hold.placed_by_email}` : ''}
        {hold.released_at &&
          ` · released ${utc(hold.released_at)}${hold.released_by_email ? ` by ${hold.released_by_email}` : ''}: ${hold.release_reason ?? ''}`}
      </p>
      {!hold.released_at && (
        <form className="mt-3 flex flex-wrap items-end gap-3" onSubmit={release} noValidate>
          <Field
            className="min-w-0 flex-1"
            label={`Reason for releasing the hold on ${who}`}
            value={reason}
            maxLength={500}
            error={error}
            onChange={(event) => setReason(event.target.value)}
          />
          <Button type="submit" variant="outline" disabled={change.isPending}>
            <LockOpen aria-hidden="true" />
            Release hold
          </Button>
        </form>
      )}
    </li>
  );
}
