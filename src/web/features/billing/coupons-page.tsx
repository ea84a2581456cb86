/**
 * Coupons (/app/admin/coupons, platform admins; decisions 0601, 0613): create a coupon (a code
 * of one's own or a generated one, its tier, the organization a person who redeems it joins,
 * how many may redeem it, the last day it works), see every coupon with its redemptions,
 * change its organization, maximum and last day, and revoke one. The database refuses anyone
 * else.
 */
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Field, SelectField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { useAppSession } from '@/lib/app-session';
import {
  useCouponChanges,
  useCouponOrganizations,
  useCoupons,
  useOrganizationNames,
  usePricingTiers,
  type Coupon,
} from './api/billing-queries';

const day = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });

function state(coupon: Coupon, now = Date.now()): { label: string; live: boolean } {
  if (coupon.revoked_at) return { label: 'Revoked', live: false };
  if (coupon.expires_at && Date.parse(coupon.expires_at) <= now)
    return { label: 'Expired', live: false };
  if (coupon.redeemed_count >= coupon.max_redemptions) return { label: 'Used up', live: false };
  return { label: 'Active', live: true };
}

function maxError(max: string, atLeast = 1): string | undefined {
  const count = Number(max);
  if (max === '') return undefined;
  if (!Number.isInteger(count) || count < 1 || count > 1_000_000)
    return 'A whole number from 1 to 1,000,000.';
  if (count < atLeast) return `At least ${atLeast}: that many have already redeemed it.`;
  return undefined;
}

/**
 * The organization a coupon ties new people to: a search by name, then a choice among the
 * matches (or none). `current` keeps an already chosen organization listed while searching.
 */
function OrganizationPicker({
  value,
  onChange,
  current,
}: {
  value: string;
  onChange: (id: string) => void;
  current?: { id: string; name: string };
}) {
  const [search, setSearch] = useState('');
  const found = useCouponOrganizations(search.trim());
  const options = [...(found.data ?? [])];
  if (current && !options.some((o) => o.id === current.id))
    options.unshift({ ...current, slug: '' });
  return (
    <div className="grid gap-4 sm:col-span-2 sm:grid-cols-2">
      <Field
        label="Find an organization"
        type="search"
        autoComplete="off"
        maxLength={200}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        hint="By name or slug."
      />
      <SelectField
        label="Organization"
        hint={
          found.isError
            ? `Could not load the organizations: ${found.error.message}`
            : 'A person who redeems it joins as a learner.'
        }
        value={value}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">None (no organization)</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </SelectField>
    </div>
  );
}

function NewCouponForm() {
  const tiers = usePricingTiers();
  const { create } = useCouponChanges();
  const [code, setCode] = useState('');
  const [tier, setTier] = useState('free');
  const [max, setMax] = useState('50');
  const [expiresOn, setExpiresOn] = useState('');
  const [organizationId, setOrganizationId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const count = Number(max);
  const countError = maxError(max);

  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    create.mutate(
      {
        tier,
        maxRedemptions: count,
        code,
        expiresOn: expiresOn || undefined,
        organizationId: organizationId || null,
      },
      {
        onSuccess: (coupon) => {
          toast.success(`Coupon ${coupon.code} created.`);
          setCode('');
        },
        onError: (failure) => setError(failure.message),
      },
    );
  }

  return (
    <form className="grid gap-4 sm:grid-cols-2" onSubmit={submit} noValidate>
      <Field
        label="Code (optional)"
        hint="Leave empty for a generated one such as LYC-4F2A9C-D81E07."
        autoComplete="off"
        spellCheck={false}
        maxLength={40}
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      <SelectField
        label="Tier"
        hint="What a person who redeems it gets; 100 % off."
        value={tier}
        onChange={(e) => setTier(e.target.value)}
      >
        {(tiers.data ?? [{ id: 'free', name: 'Free' }]).map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </SelectField>
      <OrganizationPicker value={organizationId} onChange={setOrganizationId} />
      <Field
        label="Maximum redemptions"
        type="number"
        inputMode="numeric"
        min={1}
        max={1_000_000}
        required
        value={max}
        error={countError}
        onChange={(e) => setMax(e.target.value)}
      />
      <Field
        label="Last day it works (optional, UTC)"
        type="date"
        value={expiresOn}
        onChange={(e) => setExpiresOn(e.target.value)}
      />
      {error && (
        <Notice tone="error" className="sm:col-span-2">
          {error}
        </Notice>
      )}
      <div className="sm:col-span-2">
        <Button type="submit" disabled={create.isPending || max === '' || Boolean(countError)}>
          {create.isPending ? 'Creating…' : 'Create coupon'}
        </Button>
      </div>
    </form>
  );
}

function EditCouponDialog({
  coupon,
  organizationName,
  onClose,
}: {
  coupon: Coupon;
  organizationName: string | undefined;
  onClose: () => void;
}) {
  const { update } = useCouponChanges();
  const [max, setMax] = useState(String(coupon.max_redemptions));
  const [expiresOn, setExpiresOn] = useState(coupon.expires_at?.slice(0, 10) ?? '');
  const [organizationId, setOrganizationId] = useState(coupon.organization_id ?? '');
  const [error, setError] = useState<string | null>(null);
  const countError = maxError(max, coupon.redeemed_count);

  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    update.mutate(
      {
        id: coupon.id,
        maxRedemptions: Number(max),
        expiresOn: expiresOn || undefined,
        organizationId: organizationId || null,
      },
      {
        onSuccess: (changed) => {
          toast.success(`Coupon ${changed.code} changed.`);
          onClose();
        },
        onError: (failure) => setError(failure.message),
      },
    );
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Change {coupon.code}</DialogTitle>
          <DialogDescription>
            Its code and tier stay; people who redeemed it keep what they got.
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <OrganizationPicker
            value={organizationId}
            onChange={setOrganizationId}
            current={
              coupon.organization_id
                ? { id: coupon.organization_id, name: organizationName ?? 'Current organization' }
                : undefined
            }
          />
          <Field
            label="Maximum redemptions"
            type="number"
            inputMode="numeric"
            min={Math.max(1, coupon.redeemed_count)}
            max={1_000_000}
            required
            value={max}
            error={countError}
            onChange={(e) => setMax(e.target.value)}
          />
          <Field
            label="Last day it works (optional, UTC)"
            type="date"
            value={expiresOn}
            onChange={(e) => setExpiresOn(e.target.value)}
          />
          {error && <Notice tone="error">{error}</Notice>}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={update.isPending || max === '' || Boolean(countError)}>
              {update.isPending ? 'Saving…' : 'Save changes'}
            </Button>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function CouponList() {
  const coupons = useCoupons();
  const { revoke } = useCouponChanges();
  const names = useOrganizationNames(
    (coupons.data ?? []).flatMap((c) => (c.organization_id ? [c.organization_id] : [])),
  );
  const [editing, setEditing] = useState<Coupon | null>(null);
  if (coupons.isPending) return <LoadingBlock label="Loading the coupons…" />;
  if (coupons.isError)
    return (
      <LoadError
        message={`Could not load the coupons: ${coupons.error.message}`}
        onRetry={() => void coupons.refetch()}
      />
    );
  if (coupons.data.length === 0)
    return (
      <EmptyState>
        No coupons yet. Create one above and give its code to the people you invite.
      </EmptyState>
    );
  const organizationName = (id: string | null) =>
    id ? (names.data?.get(id) ?? (names.isError ? 'Unknown organization' : '…')) : 'None';
  return (
    <>
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead scope="col">Code</TableHead>
            <TableHead scope="col">Tier</TableHead>
            <TableHead scope="col">Organization</TableHead>
            <TableHead scope="col">Redeemed</TableHead>
            <TableHead scope="col">Works until</TableHead>
            <TableHead scope="col">State</TableHead>
            <TableHead scope="col">
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {coupons.data.map((coupon) => {
            const { label, live } = state(coupon);
            return (
              <TableRow key={coupon.id}>
                <TableCell className="font-mono">{coupon.code}</TableCell>
                <TableCell>{coupon.tier}</TableCell>
                <TableCell>{organizationName(coupon.organization_id)}</TableCell>
                <TableCell>
                  {coupon.redeemed_count} of {coupon.max_redemptions}
                </TableCell>
                <TableCell>
                  {coupon.expires_at ? day.format(new Date(coupon.expires_at)) : 'No end'}
                </TableCell>
                <TableCell>
                  <Badge variant={live ? 'default' : 'secondary'}>{label}</Badge>
                </TableCell>
                <TableCell className="flex flex-wrap gap-2">
                  {!coupon.revoked_at && (
                    <Button
                      size="sm"
                      variant="outline"
                      aria-label={`Change ${coupon.code}`}
                      onClick={() => setEditing(coupon)}
                    >
                      Change
                    </Button>
                  )}
                  {!coupon.revoked_at && (
                    <Button
                      size="sm"
                      variant="outline"
                      disabled={revoke.isPending}
                      aria-label={`Revoke ${coupon.code}`}
                      onClick={() => {
                        if (
                          !window.confirm(`Revoke ${coupon.code}? Nobody can redeem it afterwards.`)
                        )
                          return;
                        revoke.mutate(coupon.id, {
                          onSuccess: () => toast.success(`Coupon ${coupon.code} revoked.`),
                          onError: (failure) => toast.error(`Not revoked: ${failure.message}`),
                        });
                      }}
                    >
                      Revoke
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      {editing && (
        <EditCouponDialog
          coupon={editing}
          organizationName={
            editing.organization_id ? names.data?.get(editing.organization_id) : undefined
          }
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}

export function CouponsPage() {
  const { platformAdmin } = useAppSession();
  if (!platformAdmin)
    return (
      <AppPage title="Coupons">
        <Notice tone="info">Coupons are managed by the platform&apos;s administrators.</Notice>
      </AppPage>
    );
  return (
    <AppPage
      title="Coupons"
      intro="During the beta, signing up needs a coupon. Each code admits as many people as it allows."
    >
      <Section title="New coupon" id="coupons-new">
        <NewCouponForm />
      </Section>
      <Section title="All coupons" id="coupons-all" description="Newest first.">
        <CouponList />
      </Section>
    </AppPage>
  );
}
