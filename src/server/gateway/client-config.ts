import { Hono } from 'hono';
import type { GatewayDeps } from './context';

/**
 * The web app asks for the API URL and anon key at load time, so a build carries no
 * deployment secrets and one build runs against any deployment. `betaGate` tells the sign-up
 * form to ask for a coupon, `payments` whether checkout can take a payment (decision 0601).
 * `mfa` says which second factors besides the authenticator app can be added (`enroll`) and
 * asked for at sign-in (`verify`), so account settings offers only what the service accepts.
 */
export function clientConfigRoutes({ config, keys }: Pick<GatewayDeps, 'config' | 'keys'>) {
  return new Hono().get('/', (c) => {
    c.header('Cache-Control', 'no-cache');
    const url = config.siteUrl ?? new URL(c.req.url).origin;
    return c.json({
      apiUrl: url,
      anonKey: keys.anonKey,
      betaGate: config.billing.betaGate,
      payments: config.billing.stripe !== undefined,
      passkeys: config.auth.webauthn.passkeys,
      mfa: {
        phone: { enroll: config.auth.mfaPhone.enroll, verify: config.auth.mfaPhone.verify },
        webauthn: {
          enroll: config.auth.webauthn.mfaEnroll,
          verify: config.auth.webauthn.mfaVerify,
        },
      },
    });
  });
}
