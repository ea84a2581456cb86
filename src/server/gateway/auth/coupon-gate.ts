/**
 * The beta gate at sign-up (decision 0601): with BETA_GATE on, `auth.signUp` needs a coupon in
 * `options.data.coupon`; a coupon sent with the gate off is redeemed too (it may grant a tier
 * or an organization). Codes tried count against the client address's coupon allowance, so
 * none can be guessed in a loop. The coupon itself is redeemed in the sign-up's transaction.
 */
import { AuthError } from '../../auth/errors';
import { CouponError, couponRequiredMessage } from '../../billing/coupons';
import type { AuthServices } from './http';

/** The coupon sent with a sign-up, and the user metadata to keep (without the code). */
export function couponForSignUp(
  services: AuthServices,
  ip: string,
  data: Record<string, unknown> | undefined,
): { coupon?: string; metadata: Record<string, unknown> } {
  const { coupon: sent, ...metadata } = data ?? {};
  const coupon = typeof sent === 'string' && sent.trim() !== '' ? sent.trim() : undefined;
  if (sent !== undefined && sent !== null && typeof sent !== 'string')
    throw new AuthError(400, 'validation_failed', 'The coupon must be text.');
  if (!coupon) {
    if (services.config.billing.betaGate)
      throw new AuthError(403, 'coupon_required', couponRequiredMessage);
    return { metadata };
  }
  const wait = services.gateway.couponAttempts.take(`sign-up:${ip}`);
  if (wait > 0) throw toAuthError(tooManyAttempts(services, wait));
  return { coupon, metadata };
}

export function tooManyAttempts(services: Pick<AuthServices, 'config'>, wait: number) {
  const limit = services.config.billing.couponAttemptsPer10Minutes;
  return new CouponError(
    'rate_limited',
    `Too many coupon codes tried from this address: at most ${limit} per 10 minutes. Try again in ${wait} s.`,
    wait,
  );
}

function toAuthError(error: CouponError): AuthError {
  if (error.problem === 'rate_limited')
    return new AuthError(429, 'over_request_rate_limit', error.message, {
      retry_after: error.retryAfter,
    });
  if (error.problem === 'required') return new AuthError(403, 'coupon_required', error.message);
  return new AuthError(403, `coupon_${error.problem}`, error.message);
}

/** Runs the sign-up, answering a refused coupon in the auth service's error shape. */
export async function refusingCoupons<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof CouponError) throw toAuthError(error);
    throw error;
  }
}
