/**
 * Billing's shapes shared by the server's functions and the web app (decisions 0600–0602).
 */
import { z } from 'zod';

export const checkoutRequestSchema = z.object({
  tier: z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'tier must be a tier id such as "pro"'),
  organization_id: z.uuid('organization_id must be an organization id').optional(),
  coupon: z.string().trim().min(1).max(40, 'A coupon code is at most 40 characters').optional(),
});
export type CheckoutRequestBody = z.infer<typeof checkoutRequestSchema>;

/** What create-checkout answers. */
export type CheckoutResponse =
  | { configured: true; activated: true; tier: string }
  | { configured: true; activated: false; url: string; session_id: string }
  | { configured: false; message: string; setup?: string };

/** What check-subscription answers. */
export interface SubscriptionStatusResponse {
  tier: { id: string; name: string };
  status: string;
  source: 'personal' | 'organization' | 'none';
  organization: { id: string; name: string } | null;
  current_period_end: string | null;
  own: { tier: string; status: string; current_period_end: string | null } | null;
  allowances: Record<string, number>;
}

/** A row of `pricing_tiers`: a tier and its allowances, as the pricing section shows it. */
export interface PricingTier {
  id: string;
  name: string;
  summary: string;
  audience: 'individual' | 'organization';
  monthly_price_cents: number | null;
  currency: string;
  rank: number;
  allowances: Record<string, number>;
}

/** Words for the metered features of `quota_tier_allowances`. */
export const featureLabels: Record<string, string> = {
  coach_message: 'study coach messages a month',
};

/** The spec's beta: pricing buttons are disabled while the coupon gate is on (section 9). */
export const betaPricingNotice =
  'Lyceum is in its beta: access is by coupon only and plans cannot be bought yet. Prices and allowances are shown as they will apply when payments open.';
