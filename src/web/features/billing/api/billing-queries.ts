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

export interface NewCoupon {
  tier: string;
  maxRedemptions: number;
  code?: string;
  /** The last valid day (UTC), as yyyy-mm-dd; the coupon expires at the end of it. */
  expiresOn?: string;
}

export async function createCoupon(input: NewCoupon): Promise<Coupon> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('create_coupon', {
    p_tier: input.tier,
    p_max_redemptions: input.maxRedemptions,
    p_code: input.code?.trim() || null,
    p_expires_at: input.expiresOn ? `${input.expiresOn}T23:59:59Z` : null,
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
    revoke: useMutation({ mutationFn: revokeCoupon, onSuccess: refresh }),
  };
}
