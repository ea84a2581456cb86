/**
 * Coupons (decision 0601): checked and redeemed in the database (`billing.check_coupon`,
 * `billing.redeem_coupon`, db/app/0900), so redemption is atomic on both databases. This
 * module names the outcomes and says in a sentence what was wrong with a refused code.
 */
import type { Queryable } from '../db/types';

export type CouponProblem = 'unknown' | 'revoked' | 'expired' | 'used_up';

/** What the database answers about a coupon: its terms, and whether it can be redeemed. */
export interface CouponOutcome {
  ok: boolean;
  reason: CouponProblem | null;
  coupon_id: string | null;
  code: string | null;
  tier: string | null;
  organization_id: string | null;
  percent_off: number | null;
  stripe_promotion_code: string | null;
  max_redemptions: number | null;
  expires_at: string | null;
  already_redeemed?: boolean;
}

/** A code is at most 40 characters; anything longer cannot be one, so it is not looked up. */
export const COUPON_CODE_MAX_LENGTH = 40;

export class CouponError extends Error {
  constructor(
    public readonly problem: CouponProblem | 'required' | 'rate_limited',
    message: string,
    /** Seconds to wait, for `rate_limited`. */
    public readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'CouponError';
  }
}

function shown(code: string): string {
  return code.trim().toUpperCase().slice(0, COUPON_CODE_MAX_LENGTH);
}

/** The sentence a person reads when a coupon is refused. */
export function couponProblemMessage(code: string, outcome: CouponOutcome): string {
  const name = `The coupon ${shown(code)}`;
  switch (outcome.reason) {
    case 'revoked':
      return `${name} has been withdrawn and can no longer be used. Ask whoever gave it to you for a new one.`;
    case 'expired':
      return `${name} expired on ${new Date(outcome.expires_at!).toUTCString().replace(/ GMT$/, ' UTC')}. Ask whoever gave it to you for a new one.`;
    case 'used_up':
      return `${name} has been used the most times it allows (${outcome.max_redemptions}). Ask whoever gave it to you for a new one.`;
    default:
      return `${name} does not exist. Check the code you were given (letters, digits and hyphens; upper or lower case).`;
  }
}

export const couponRequiredMessage =
  'Lyceum is in its beta: signing up needs a coupon. Enter the coupon code you were given.';

function plausible(code: string): boolean {
  const trimmed = code.trim();
  return trimmed.length >= 4 && trimmed.length <= COUPON_CODE_MAX_LENGTH;
}

function refusal(code: string, outcome: CouponOutcome): CouponError {
  const problem = outcome.reason ?? 'unknown';
  return new CouponError(problem, couponProblemMessage(code, { ...outcome, reason: problem }));
}

const unknownOutcome: CouponOutcome = {
  ok: false,
  reason: 'unknown',
  coupon_id: null,
  code: null,
  tier: null,
  organization_id: null,
  percent_off: null,
  stripe_promotion_code: null,
  max_redemptions: null,
  expires_at: null,
};

/** A coupon's terms if it can be redeemed now; throws `CouponError` saying why not. */
export async function checkCoupon(tx: Queryable, code: string): Promise<CouponOutcome> {
  if (!plausible(code)) throw refusal(code, unknownOutcome);
  const { rows } = await tx.query<{ outcome: CouponOutcome }>(
    'select billing.check_coupon($1) as outcome',
    [code],
  );
  const outcome = rows[0]!.outcome;
  if (!outcome.ok) throw refusal(code, outcome);
  return outcome;
}

/**
 * Redeems a coupon for a user inside the caller's transaction (so a sign-up that fails later
 * gives the redemption back); throws `CouponError` saying why it cannot be redeemed.
 */
export async function redeemCoupon(
  tx: Queryable,
  code: string,
  userId: string,
  purpose: 'sign_up' | 'checkout',
): Promise<CouponOutcome> {
  if (!plausible(code)) throw refusal(code, unknownOutcome);
  const { rows } = await tx.query<{ outcome: CouponOutcome }>(
    'select billing.redeem_coupon($1, $2, $3) as outcome',
    [code, userId, purpose],
  );
  const outcome = rows[0]!.outcome;
  if (!outcome.ok) throw refusal(code, outcome);
  return outcome;
}
