/**
 * The person's plan as check-subscription states it: the tier in force, whose subscription it
 * is, its status and renewal date, and this month's allowances. Shown on Settings and Plans.
 */
import { featureLabels } from '@common/billing';
import { LoadError, LoadingBlock } from '@/components/app-page';
import { Badge } from '@/components/ui/badge';
import { useSubscription } from '@/lib/subscription';

const statusLabels: Record<string, string> = {
  active: 'Active',
  trialing: 'Trial',
  past_due: 'Payment failed',
  unpaid: 'Unpaid',
  canceled: 'Cancelled',
  incomplete: 'Awaiting payment',
  incomplete_expired: 'Payment expired',
  paused: 'Paused',
};

const day = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

export function SubscriptionCard({ userId }: { userId: string }) {
  const subscription = useSubscription(userId);
  if (subscription.isPending) return <LoadingBlock label="Loading your plan…" />;
  if (subscription.isError)
    return (
      <LoadError
        message={`Could not load your plan: ${subscription.error.message}`}
        onRetry={() => void subscription.refetch()}
      />
    );
  const plan = subscription.data;
  return (
    <div className="grid gap-3" data-testid="subscription-card">
      <div className="flex flex-wrap items-center gap-2">
        <p className="text-base font-semibold">{plan.tier.name}</p>
        {plan.status !== 'none' && (
          <Badge variant="secondary">{statusLabels[plan.status] ?? plan.status}</Badge>
        )}
      </div>
      <p className="text-sm text-muted-foreground">
        {plan.source === 'organization' && plan.organization
          ? `Through ${plan.organization.name}'s subscription.`
          : plan.source === 'personal'
            ? 'Your own subscription.'
            : 'Every account has the Free plan.'}
        {plan.current_period_end &&
          ` Renews or ends on ${day.format(new Date(plan.current_period_end))}.`}
      </p>
      {plan.own && (
        <p className="text-sm">
          Your own {plan.own.tier} subscription is{' '}
          {(statusLabels[plan.own.status] ?? plan.own.status).toLowerCase()}
          {plan.own.status === 'past_due' ? ': update your payment to get it back.' : '.'}
        </p>
      )}
      <ul className="grid gap-1 text-sm">
        {Object.entries(plan.allowances).map(([feature, limit]) => (
          <li key={feature}>
            {limit.toLocaleString('en-GB')} {featureLabels[feature] ?? feature.replace(/_/g, ' ')}
          </li>
        ))}
      </ul>
    </div>
  );
}
