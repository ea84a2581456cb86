/**
 * Plans (/app/plans, decisions 0600–0602): the person's plan from check-subscription, and the
 * pricing section: every tier with its price and allowances, read from `pricing_tiers` (the
 * same rows the quotas use). During the beta the buy buttons are disabled, as the spec says,
 * with the reason beside them; otherwise a button opens Stripe Checkout.
 */
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { betaPricingNotice, featureLabels, type PricingTier } from '@common/billing';
import { AppPage, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { SubscriptionCard } from '@/components/subscription-card';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { useAppSession } from '@/lib/app-session';
import { useSubscription } from '@/lib/subscription';
import { useBillingSettings, usePricingTiers, useStartCheckout } from './api/billing-queries';

function price(tier: PricingTier): string {
  if (!tier.monthly_price_cents) return 'Free';
  const amount = new Intl.NumberFormat('en-GB', {
    style: 'currency',
    currency: tier.currency.toUpperCase(),
    minimumFractionDigits: tier.monthly_price_cents % 100 === 0 ? 0 : 2,
  }).format(tier.monthly_price_cents / 100);
  return `${amount} a month`;
}

export function PlansPage() {
  const { userId, workspace } = useAppSession();
  const [search] = useSearchParams();
  const tiers = usePricingTiers();
  const settings = useBillingSettings();
  const subscription = useSubscription(userId);
  const checkout = useStartCheckout();
  const [problem, setProblem] = useState<string | null>(null);
  const noticeId = useId();
  const administers =
    workspace.kind === 'organization' &&
    (workspace.isOwner || (workspace.roles.includes('org_admin') && !workspace.boardAdminOnly));
  const beta = settings.data?.betaGate !== false;
  const returned = search.get('checkout');

  function choose(tier: PricingTier) {
    setProblem(null);
    checkout.mutate(
      {
        tier: tier.id,
        ...(tier.audience === 'organization' && workspace.kind === 'organization'
          ? { organization_id: workspace.organizationId }
          : {}),
      },
      {
        onSuccess: (answer) => {
          if (!answer.configured)
            setProblem(answer.setup ? `${answer.message} ${answer.setup}` : answer.message);
          else if (answer.activated) toast.success('Your plan is active.');
          else window.location.assign(answer.url);
        },
        onError: (error) => setProblem(error.message),
      },
    );
  }

  return (
    <AppPage title="Plans" intro="Your plan, and what each plan includes every month.">
      {returned === 'success' && (
        <Notice tone="success">
          Thank you: your payment went through. Your plan changes as soon as Stripe confirms it.
        </Notice>
      )}
      {returned === 'cancelled' && (
        <Notice tone="info">The checkout was cancelled; nothing was charged.</Notice>
      )}
      <Section title="Your plan" id="plans-current">
        <SubscriptionCard userId={userId} />
      </Section>
      <Section
        title="Pricing"
        id="plans-pricing"
        description="Allowances reset on the 1st of each month (UTC)."
      >
        {beta && (
          <p id={noticeId} className="mb-4 rounded-md border bg-muted p-3 text-sm">
            {betaPricingNotice}
          </p>
        )}
        {problem && (
          <Notice tone="error" className="mb-4">
            {problem}
          </Notice>
        )}
        {tiers.isPending ? (
          <LoadingBlock label="Loading the plans…" />
        ) : tiers.isError ? (
          <LoadError
            message={`Could not load the plans: ${tiers.error.message}`}
            onRetry={() => void tiers.refetch()}
          />
        ) : (
          <ul className="grid gap-4 md:grid-cols-3">
            {tiers.data.map((tier) => {
              const current = subscription.data?.tier.id === tier.id;
              const forOrganization = tier.audience === 'organization';
              const blocked = forOrganization && !administers;
              return (
                <li
                  key={tier.id}
                  className="flex flex-col gap-3 rounded-lg border p-4"
                  aria-labelledby={`tier-${tier.id}`}
                >
                  <h3 id={`tier-${tier.id}`} className="text-base font-semibold">
                    {tier.name}
                  </h3>
                  <p className="text-2xl font-semibold">{price(tier)}</p>
                  <p className="text-sm text-muted-foreground">{tier.summary}</p>
                  <ul className="grid gap-1 text-sm">
                    {Object.entries(tier.allowances).map(([feature, limit]) => (
                      <li key={feature}>
                        {limit.toLocaleString('en-GB')}{' '}
                        {featureLabels[feature] ?? feature.replace(/_/g, ' ')}
                        {forOrganization ? ' per member' : ''}
                      </li>
                    ))}
                  </ul>
                  <div className="mt-auto grid gap-1">
                    {tier.monthly_price_cents === null ? (
                      <p className="text-sm font-medium">
                        {current ? 'Your plan' : 'Included with every account'}
                      </p>
                    ) : (
                      <Button
                        disabled={beta || current || blocked || checkout.isPending}
                        aria-describedby={beta ? noticeId : undefined}
                        onClick={() => choose(tier)}
                      >
                        {current ? 'Your plan' : `Choose ${tier.name}`}
                      </Button>
                    )}
                    {blocked && !beta && (
                      <p className="text-xs text-muted-foreground">
                        Bought by an organization&apos;s owner or admin, for all its members.
                      </p>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </Section>
    </AppPage>
  );
}
