/**
 * GET (or POST) /functions/v1/check-subscription with a user's token: the caller's tier in
 * force and its status (decision 0600): `{ tier: { id, name }, status, source, organization,
 * current_period_end, own, allowances }`. `source` says whose subscription covers them (their
 * own, an organization's, or none: the free tier); `own` is their own subscription when it is
 * not the one in force (e.g. `past_due` after a failed payment).
 */
import { Hono, type Context } from 'hono';
import type { SubscriptionStatusResponse } from '../../common/billing';
import { subscriptionStatus } from '../billing/subscriptions';
import type { ApiEnv, GatewayDeps } from '../gateway/context';
import type { EdgeFunctionDefinition } from './types';

function createApp(deps: GatewayDeps) {
  const app = new Hono<ApiEnv>();
  const check = async (c: Context<ApiEnv>) => {
    c.header('Cache-Control', 'no-store');
    const claims = c.get('claims');
    if (claims.role !== 'authenticated' || !claims.sub)
      return c.json({ error: 'Sign in to see your subscription.', code: 'not_signed_in' }, 401);
    const status: SubscriptionStatusResponse = await subscriptionStatus(deps.db, claims.sub);
    return c.json(status, 200);
  };
  app.get('/', check);
  app.post('/', check);
  return app;
}

export const checkSubscriptionFunction: EdgeFunctionDefinition = {
  name: 'check-subscription',
  maxBodyBytes: 1024,
  create: createApp,
};
