/** `GET /settings` and `GET /.well-known/jwks.json`. */
import { Hono } from 'hono';
import type { AuthEnv, AuthServices } from './http';

export function settingsRoutes(services: AuthServices) {
  const app = new Hono<AuthEnv>();

  app.get('/settings', (c) => {
    const oidc = services.config.auth.oidc;
    return c.json({
      external: {
        anonymous_users: services.config.auth.anonymousUsers,
        email: true,
        phone: services.config.auth.phone.enabled,
        ...(oidc ? { [oidc.name]: true } : {}),
      },
      disable_signup: services.config.auth.disableSignup,
      mailer_autoconfirm: services.config.auth.autoconfirm,
      phone_autoconfirm: false,
      sms_provider: services.config.auth.phone.enabled ? services.sms.kind : '',
      saml_enabled: true,
      mfa: {
        totp: true,
        phone: services.config.auth.mfaPhone.enroll,
        webauthn: services.config.auth.webauthn.mfaEnroll,
      },
      passkeys_enabled: services.config.auth.webauthn.passkeys,
      password_min_length: services.config.auth.passwordMinLength,
    });
  });

  app.get('/.well-known/jwks.json', (c) => {
    // Clients cache the set for 10 minutes; a rotated key must reach them well within a token's life.
    c.header('Cache-Control', 'public, max-age=600');
    return c.json({ keys: services.keys.publicJwks });
  });

  return app;
}
