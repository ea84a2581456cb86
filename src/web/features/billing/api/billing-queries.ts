/**
 * The billing feature's reads and writes (decisions 0600–0602): the tiers with their
 * allowances (`pricing_tiers`), whether the beta gate is on and payments are set up (the
 * server's client configuration), coupons for platform admins, and checkout.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CheckoutRequestBody, CheckoutResponse, PricingTier } from '@common/billing';
import { getClientConfig } from '@/lib/client-config';
import { getSupabase } from '@/lib/supabase';
import { functionError, subscriptionKeys } from '@/lib/subscription';

export const billingKeys = {
  all: ['billing'] as const,
  tiers: () => [...billingKeys.all, 'tiers'] as const,
  settings: () => [...billingKeys.all, 'settings'] as const,
  coupons: () => [...billingKeys.all, 'coupons'] as const,
  organizations: (search: string) => [...billingKeys.all, 'organizations', search] as const,
  organizationNames: (ids: string[]) => [...billingKeys.all, 'organization-names', ids] as const,
};

export async function getPricingTiers(): Promise<PricingTier[]> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('pricing_tiers')
    .select('id, name, summary, audience, monthly_price_cents, currency, rank, allowances')
    .order('rank');
  if (error) throw new Error(error.message);
  return data as PricingTier[];
}

export function usePricingTiers() {
  return useQuery({ queryKey: billingKeys.tiers(), queryFn: getPricingTiers, staleTime: 60_000 });
}

export interface BillingSettings {
  betaGate: boolean;
  payments: boolean;
}

export async function getBillingSettings(): Promise<BillingSettings> {
  const { betaGate, payments } = await getClientConfig();
  return { betaGate, payments };
}

export function useBillingSettings() {
  return useQuery({
    queryKey: billingKeys.settings(),
    queryFn: getBillingSettings,
    staleTime: Infinity,
  });
}

export async function startCheckout(body: CheckoutRequestBody): Promise<CheckoutResponse> {
  const client = await getSupabase();
  const { data, error } = await client.functions.invoke<CheckoutResponse>('create-checkout', {
    body,
  });
  if (error) throw await functionError(error);
  if (!data) throw new Error('create-checkout answered nothing');
  return data;
}

export function useStartCheckout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startCheckout,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriptionKeys.all }),
  });
}

export interface Coupon {
  id: string;
  code: string;
  tier: string;
  organization_id: string | null;
  percent_off: number;
  max_redemptions: number;
  redeemed_count: number;
  expires_at: string | null;
  created_at: string;
  revoked_at: string | null;
}

export async function getCoupons(): Promise<Coupon[]> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('coupons')
    .select(
      'id, code, tier, organization_id, percent_off, max_redemptions, redeemed_count, expires_at, created_at, revoked_at',
    )
    .order('created_at', { ascending: false })
    .limit(500);
  if (error) throw new Error(error.message);
  return data as Coupon[];
}

export function useCoupons() {
  return useQuery({ queryKey: billingKeys.coupons(), queryFn: getCoupons });
}

export interface CouponOrganization {
  id: string;
  name: string;
  slug: string;
}

/** Organizations a coupon may be tied to, by name or slug (platform admins; decision 0613). */
export async function findCouponOrganizations(search: string): Promise<CouponOrganization[]> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('coupon_organizations', { p_search: search });
  if (error) throw new Error(error.message);
  return data as CouponOrganization[];
}

export function useCouponOrganizations(search: string) {
  return useQuery({
    queryKey: billingKeys.organizations(search),
    queryFn: () => findCouponOrganizations(search),
    placeholderData: (previous) => previous,
  });
}

/** The names of the organizations the listed coupons are tied to. */
export function useOrganizationNames(ids: string[]) {
  const sorted = [...new Set(ids)].sort();
  return useQuery({
    queryKey: billingKeys.organizationNames(sorted),
    enabled: sorted.length > 0,
    queryFn: async () => {
      const client = await getSupabase();
      const { data, error } = await client.rpc('coupon_organizations', {
        p_ids: sorted,
        p_limit: 200,
      });
      if (error) throw new Error(error.message);
      return new Map((data as CouponOrganization[]).map((o) => [o.id, o.name]));
    },
  });
}

export interface NewCoupon {
  tier: string;
  maxRedemptions: number;
  code?: string;
  /** The last valid day (UTC), as yyyy-mm-dd; the coupon expires at the end of it. */
  expiresOn?: string;
  /** The organization a person who redeems it joins as a learner. */
  organizationId?: string | null;
}

const endOfDay = (day: string | undefined) => (day ? `${day}T23:59:59Z` : null);

export async function createCoupon(input: NewCoupon): Promise<Coupon> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('create_coupon', {
    p_tier: input.tier,
    p_max_redemptions: input.maxRedemptions,
    p_code: input.code?.trim() || null,
    p_expires_at: endOfDay(input.expiresOn),
    p_organization_id: input.organizationId ?? null,
  });
  if (error) throw new Error(error.message);
  return data as Coupon;
}

export interface CouponChange {
  id: string;
  maxRedemptions: number;
  expiresOn?: string;
  organizationId: string | null;
}

export async function updateCoupon(change: CouponChange): Promise<Coupon> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('update_coupon', {
    p_coupon: change.id,
    p_max_redemptions: change.maxRedemptions,
    p_expires_at: endOfDay(change.expiresOn),
    p_organization_id: change.organizationId,
  });
  if (error) throw new Error(error.message);
  return data as Coupon;
}

export async function revokeCoupon(id: string): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.rpc('revoke_coupon', { p_coupon: id });
  if (error) throw new Error(error.message);
}

export function useCouponChanges() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: billingKeys.coupons() });
  return {
    create: useMutation({ mutationFn: createCoupon, onSuccess: refresh }),
    update: useMutation({ mutationFn: updateCoupon, onSuccess: refresh }),
    revoke: useMutation({ mutationFn: revokeCoupon, onSuccess: refresh }),
  };
}
