/**
 * The one place that reads the environment. Everything else receives a `Config`.
 * Start-up stops with a list of every invalid setting.
 */
import path from 'node:path';
import { z } from 'zod';

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value));

const booleanFlag = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((value) => (value === undefined ? undefined : value === 'true' || value === '1'));

/** Comma-separated schema names, trimmed: none empty, repeated or over Postgres's 63 bytes. */
function schemaList(fallback: string, options: { allowEmpty?: boolean } = {}) {
  return z
    .string()
    .default(fallback)
    .transform((value) =>
      options.allowEmpty && value.trim() === '' ? [] : value.split(',').map((name) => name.trim()),
    )
    .pipe(
      z
        .array(
          z
            .string()
            .min(1, 'a schema name is empty')
            .refine((name) => Buffer.byteLength(name) <= 63, 'a schema name is over 63 bytes'),
        )
        .refine((names) => new Set(names).size === names.length, 'a schema is listed twice'),
    );
}

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Interface to listen on; loopback by default outside production (see `toConfig`). */
  HOST: optionalString,
  /** Public base URL of this deployment (links in mail, redirects, the keys printout). */
  SITE_URL: optionalString,
  DATA_DIR: z.string().default('./.data'),
  DATABASE_URL: optionalString.pipe(z.string().url().optional()),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** Embedded database: `commit` flushes each commit to disk, `off` leaves it to the OS. */
  EMBEDDED_FSYNC: z.enum(['commit', 'off']).default('commit'),
  /** Gateway processes serving one port (PostgreSQL only; see decision 0072). */
  WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  /** Whether this process sends the job queue's cron jobs (cluster mode sets it per worker). */
  JOB_SCHEDULER: booleanFlag,
  /** A private JWK (JSON) that signs tokens instead of the stored key. */
  JWT_SIGNING_KEY: optionalString,
  /** Opt-in shared secret: only when set are HS256 tokens accepted. */
  JWT_SECRET: optionalString,
  ANON_KEY: optionalString,
  SERVICE_ROLE_KEY: optionalString,
  /** Requests per second allowed per API key. */
  API_RATE_LIMIT_PER_SECOND: z.coerce.number().int().min(1).default(100),
  /** Aggregates in REST `select` (`count()`, `col.sum()`), off by default as in PostgREST. */
  REST_AGGREGATES_ENABLED: booleanFlag,
  /** PostgREST's db-max-rows: the most rows one REST read answers; unset, no cap. */
  REST_MAX_ROWS: optionalString
    .transform((value) => (value === undefined ? undefined : Number(value)))
    .pipe(z.number().int().min(1).optional()),
  /** PostgREST's db-plan-enabled: `Accept: application/vnd.pgrst.plan` answers the plan. */
  REST_PLAN_ENABLED: booleanFlag,
  /**
   * PostgREST's db-schemas: the schemas `/rest/v1` exposes, comma-separated, the first the
   * default; others are chosen per request by `Accept-Profile` / `Content-Profile`.
   */
  REST_DB_SCHEMAS: schemaList('public'),
  /**
   * PostgREST's db-extra-search-path: schemas put on every REST request's `search_path` after
   * the request's own (where extensions such as PostGIS live); empty for none.
   */
  REST_DB_EXTRA_SEARCH_PATH: schemaList('public', { allowEmpty: true }),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Directory of the built web app. */
  WEB_DIST_DIR: z.string().default('./dist/web'),
  DATA_ROOM_PIN: optionalString.pipe(z.string().max(20).optional()),
  SMTP_URL: optionalString,
  MAIL_FROM: z.string().default('Lyceum <no-reply@lyceum.local>'),
  VERCEL_TOKEN: optionalString,
  VERCEL_API_URL: z.string().url().default('https://api.vercel.com'),
  VERCEL_TEAM_ID: optionalString,
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(5).default(3600),
  SESSION_LIFETIME_DAYS: z.coerce.number().min(0.001).default(30),
  SESSION_INACTIVITY_DAYS: z.coerce.number().min(0.001).default(7),
  MAILER_AUTOCONFIRM: booleanFlag,
  OIDC_ISSUER: optionalString,
  OIDC_CLIENT_ID: optionalString,
  OIDC_CLIENT_SECRET: optionalString,
  OIDC_PROVIDER_NAME: z.string().default('oidc'),
  /** SAML: leeway for NotBefore/NotOnOrAfter between our clock and the IdP's. */
  SAML_CLOCK_SKEW_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
  /** SAML: how long a sign-in may spend at the IdP before its AuthnRequest expires. */
  SAML_REQUEST_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(600),
  /** SAML: hosts (comma-separated, host or host:port) metadata_url may name besides public HTTPS ones. */
  SAML_METADATA_ALLOWED_TARGETS: optionalString,
  /** Auth abuse limits per client address: sign-in, sign-up, recover, verify per 5 minutes. */
  AUTH_RATE_LIMIT_SIGN_IN: z.coerce.number().int().min(1).default(30),
  AUTH_RATE_LIMIT_TOKEN_REFRESH: z.coerce.number().int().min(1).default(150),
  /** MFA verification attempts per minute per client address. */
  AUTH_RATE_LIMIT_MFA_VERIFY: z.coerce.number().int().min(1).default(15),
  /** Wrong passwords for one email address within AUTH_PASSWORD_LOCKOUT_MINUTES that lock it. */
  /** GoTrue's DISABLE_SIGNUP: only invitations and the service role create accounts. */
  AUTH_DISABLE_SIGNUP: booleanFlag,
  /** GoTrue's PASSWORD_MIN_LENGTH (never below 8, our floor). */
  AUTH_PASSWORD_MIN_LENGTH: z.coerce.number().int().min(8).max(72).default(8),
  /** GoTrue's SECURITY_MANUAL_LINKING_ENABLED: `linkIdentity` from a signed-in account. */
  AUTH_MANUAL_LINKING: booleanFlag,
  /** GoTrue's EXTERNAL_ANONYMOUS_USERS_ENABLED: `signInAnonymously()` (off by default). */
  AUTH_ANONYMOUS_USERS: booleanFlag,
  /** Anonymous sign-ins per hour per client address (GoTrue's RATE_LIMIT_ANONYMOUS_USERS). */
  AUTH_RATE_LIMIT_ANONYMOUS: z.coerce.number().int().min(1).default(30),
  /** Days without a sign-in or token refresh after which an anonymous account is deleted. */
  AUTH_ANONYMOUS_USERS_INACTIVE_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** GoTrue's EXTERNAL_PHONE_ENABLED: sign-up, sign-in and phone change by SMS code. */
  AUTH_PHONE: booleanFlag,
  /** SMS sent per hour per client address (GoTrue's RATE_LIMIT_SMS_SENT). */
  AUTH_RATE_LIMIT_SMS: z.coerce.number().int().min(1).default(30),
  /** How soon one account may be sent another SMS code (GoTrue's SMS_MAX_FREQUENCY). */
  AUTH_SMS_MAX_FREQUENCY_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** Twilio's Messages API for SMS; unset, codes go to the dev mailbox. */
  TWILIO_ACCOUNT_SID: optionalString,
  TWILIO_AUTH_TOKEN: optionalString,
  /** The sender: a Twilio number (E.164) or a messaging service SID, sent as `From`. */
  TWILIO_MESSAGE_SERVICE_SID: optionalString,
  TWILIO_API_URL: z.string().url().default('https://api.twilio.com'),
  /** GoTrue's MFA_PHONE_ENROLL_ENABLED: `mfa.enroll({ factorType: 'phone' })` (off by default). */
  AUTH_MFA_PHONE_ENROLL: booleanFlag,
  /** GoTrue's MFA_PHONE_VERIFY_ENABLED: challenges of phone factors; defaults to the enrol flag. */
  AUTH_MFA_PHONE_VERIFY: booleanFlag,
  /** How soon a phone factor may be texted another code (GoTrue's MFA_PHONE_MAX_FREQUENCY). */
  AUTH_MFA_PHONE_MAX_FREQUENCY_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** Digits of a phone factor's code (GoTrue's MFA_PHONE_OTP_LENGTH, 6 to 10). */
  AUTH_MFA_PHONE_OTP_LENGTH: z.coerce.number().int().min(6).max(10).default(6),
  /** GoTrue's MFA_WEB_AUTHN_ENROLL_ENABLED: security keys and platform authenticators as factors. */
  AUTH_MFA_WEBAUTHN_ENROLL: booleanFlag,
  /** GoTrue's MFA_WEB_AUTHN_VERIFY_ENABLED; defaults to the enrol flag. */
  AUTH_MFA_WEBAUTHN_VERIFY: booleanFlag,
  /** GoTrue's PASSKEY_ENABLED: sign-in with a passkey, and passkeys managed by their owner. */
  AUTH_PASSKEYS: booleanFlag,
  /** Passkeys one account may register (GoTrue's PASSKEY_MAX_PASSKEYS_PER_USER). */
  AUTH_PASSKEYS_MAX_PER_USER: z.coerce.number().int().min(1).max(100).default(10),
  /** The WebAuthn relying party: its id (a registrable domain; default SITE_URL's host). */
  AUTH_WEBAUTHN_RP_ID: optionalString,
  /** The name authenticators show; default the product's name. */
  AUTH_WEBAUTHN_RP_DISPLAY_NAME: optionalString,
  /** Origins (comma-separated) whose ceremonies are accepted; default SITE_URL's origin. */
  AUTH_WEBAUTHN_RP_ORIGINS: optionalString,
  AUTH_PASSWORD_LOCKOUT_ATTEMPTS: z.coerce.number().int().min(1).default(10),
  AUTH_PASSWORD_LOCKOUT_MINUTES: z.coerce.number().min(0.01).default(15),
  /** Extra origins (comma-separated) that auth may redirect to besides SITE_URL. */
  AUTH_REDIRECT_ORIGINS: optionalString,
  /** Seed the demo organization on an embedded first start (on by default in development). */
  DEMO_SEED: booleanFlag,
  /**
   * How many reverse proxies stand in front of the gateway, whose X-Forwarded-For entries are
   * believed: false/0 (default) believes none, true means 1.
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const text = (value ?? '').trim().toLowerCase();
      if (text === '' || text === 'false') return 0;
      if (text === 'true') return 1;
      if (/^\d{1,2}$/.test(text)) return Number(text);
      ctx.addIssue({
        code: 'custom',
        message: 'expected false, true, or the number of proxies in front of the server',
      });
      return z.NEVER;
    }),
  /** Where object bytes are kept: `local` (DATA_DIR/storage) or an S3-compatible bucket. */
  STORAGE_BACKEND: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: optionalString,
  /** A non-AWS endpoint (MinIO, Ceph, R2, …); AWS's own when unset. */
  S3_ENDPOINT: optionalString.pipe(z.string().url().optional()),
  S3_REGION: z.string().default('us-east-1'),
  /** Prepended to every object key, so one bucket can hold several deployments. */
  S3_PREFIX: z.string().default(''),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  /** Path-style URLs (endpoint/bucket/key); the default when S3_ENDPOINT is set. */
  S3_FORCE_PATH_STYLE: booleanFlag,
  /** Storage's `/render/image` (upstream's name); on by default here. */
  IMAGE_TRANSFORMATION_ENABLED: booleanFlag,
  /** Transformed width and height are clamped to this (upstream's IMG_LIMITS_MAX_SIZE). */
  IMAGE_TRANSFORMATION_LIMIT_MAX_SIZE: z.coerce.number().int().min(1).max(10000).default(2500),
  /** Largest source file transformed, in bytes, and largest source resolution, in megapixels. */
  IMAGE_TRANSFORMATION_MAX_SOURCE_BYTES: z.coerce.number().int().min(1).default(25_000_000),
  IMAGE_TRANSFORMATION_MAX_RESOLUTION_MP: z.coerce.number().min(0.01).max(1000).default(50),
  /**
   * The study coach's model providers (decision 0201): A for Personal mode (a mid-size model),
   * B for General mode (a small model, and a larger one of B when it fails or times out).
   * Unset: the built-in offline engine.
   */
  AI_A_PROVIDER: z.enum(['openai-compatible', 'anthropic']).default('openai-compatible'),
  AI_A_BASE_URL: optionalString.pipe(z.string().url().optional()),
  AI_A_API_KEY: optionalString,
  AI_A_MODEL: optionalString,
  AI_B_PROVIDER: z.enum(['openai-compatible', 'anthropic']).default('openai-compatible'),
  AI_B_BASE_URL: optionalString.pipe(z.string().url().optional()),
  AI_B_API_KEY: optionalString,
  AI_B_MODEL: optionalString,
  AI_B_FALLBACK_MODEL: optionalString,
  /** How long one model call may take before the next model (or the offline engine) answers. */
  AI_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(20_000),
  /**
   * LE Adapt webhook targets an operator allows although they resolve to private, loopback or
   * link-local addresses: comma-separated `host`, `host:port` or `[v6]:port` (decision 0514).
   */
  ADAPT_WEBHOOK_ALLOWED_TARGETS: z.string().default(''),
  /** How long one webhook delivery attempt may take. */
  ADAPT_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** LE Adapt's MP3 narration: Flite when installed (meSpeak otherwise), or meSpeak only (0519). */
  ADAPT_NARRATION_VOICE: z.enum(['flite', 'mespeak']).default('flite'),
  /** Realtime (decision 0300): the largest broadcast or presence payload a client may send. */
  REALTIME_MAX_MESSAGE_BYTES: z.coerce.number().int().min(1024).max(16_777_216).default(262_144),
  REALTIME_MAX_CHANNELS_PER_CONNECTION: z.coerce.number().int().min(1).default(100),
  /** Channel joins per second, per connection and per caller (user, or client address). */
  REALTIME_JOINS_PER_SECOND: z.coerce.number().int().min(1).default(10),
  REALTIME_KEY_JOINS_PER_SECOND: z.coerce.number().int().min(1).default(100),
  /** Client messages (broadcast, presence) per second, per connection and per caller. */
  REALTIME_EVENTS_PER_SECOND: z.coerce.number().int().min(1).default(100),
  REALTIME_KEY_EVENTS_PER_SECOND: z.coerce.number().int().min(1).default(500),
  /** A connection that sends nothing (not even a heartbeat) for this long is closed. */
  REALTIME_HEARTBEAT_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(3600).default(60),
  /** Several processes on PostgreSQL: one not heard from this long is gone, its presences leave. */
  REALTIME_PEER_TIMEOUT_SECONDS: z.coerce.number().min(0.3).max(3600).default(15),
  /** The spec's beta access gate: sign-up needs a valid coupon (decision 0601). */
  BETA_GATE: booleanFlag,
  /** Coupon codes one client address (or user) may try per 10 minutes before 429. */
  COUPON_ATTEMPTS_PER_10_MINUTES: z.coerce.number().int().min(1).max(10_000).default(10),
  /** Payments (decision 0602): Stripe's secret key; unset, checkout says how to set it up. */
  STRIPE_SECRET_KEY: optionalString,
  /** The signing secret of the webhook endpoint (whsec_…), from Stripe's dashboard or CLI. */
  STRIPE_WEBHOOK_SECRET: optionalString,
  /** Another Stripe API base (tests use a loopback fake), e.g. http://127.0.0.1:12111. */
  STRIPE_API_BASE: optionalString.pipe(z.string().url().optional()),
});

/** Settings that only make sense together. */
const checkedSchema = schema.superRefine((env, ctx) => {
  if (env.STORAGE_BACKEND === 's3' && !env.S3_BUCKET)
    ctx.addIssue({
      code: 'custom',
      path: ['S3_BUCKET'],
      message: 'required when STORAGE_BACKEND=s3',
    });
  for (const name of ['A', 'B'] as const) {
    const model = env[`AI_${name}_MODEL`];
    const kind = env[`AI_${name}_PROVIDER`];
    if (model && kind === 'openai-compatible' && !env[`AI_${name}_BASE_URL`])
      ctx.addIssue({
        code: 'custom',
        path: [`AI_${name}_BASE_URL`],
        message: `required with AI_${name}_MODEL for an OpenAI-compatible server (e.g. https://api.openai.com/v1 or http://localhost:11434/v1)`,
      });
    if (model && kind === 'anthropic' && !env[`AI_${name}_API_KEY`])
      ctx.addIssue({
        code: 'custom',
        path: [`AI_${name}_API_KEY`],
        message: `required with AI_${name}_MODEL for Anthropic`,
      });
  }
  if (env.AI_B_FALLBACK_MODEL && !env.AI_B_MODEL)
    ctx.addIssue({
      code: 'custom',
      path: ['AI_B_FALLBACK_MODEL'],
      message: "needs AI_B_MODEL (the fallback backs up B's small model)",
    });
  const twilio = [env.TWILIO_ACCOUNT_SID, env.TWILIO_AUTH_TOKEN, env.TWILIO_MESSAGE_SERVICE_SID];
  if (twilio.some(Boolean) && !twilio.every(Boolean))
    ctx.addIssue({
      code: 'custom',
      path: ['TWILIO_ACCOUNT_SID'],
      message:
        'TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_MESSAGE_SERVICE_SID are set together or not at all',
    });
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY))
    ctx.addIssue({
      code: 'custom',
      path: ['S3_SECRET_ACCESS_KEY'],
      message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together or not at all',
    });
});

export type Config = ReturnType<typeof toConfig>;

function toConfig(env: z.infer<typeof schema>) {
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    env: env.NODE_ENV,
    isProduction: env.NODE_ENV === 'production',
    port: env.PORT,
    // A developer's server stays on their machine (the dev mailbox holds reset links) unless
    // HOST says otherwise; production listens on every interface.
    host: env.HOST ?? (env.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'),
    siteUrl: env.SITE_URL?.replace(/\/+$/, ''),
    dataDir,
    storageDir: path.join(dataDir, 'storage'),
    storageBackend: storageBackend(env),
    imageTransformation: {
      enabled: env.IMAGE_TRANSFORMATION_ENABLED ?? true,
      maxDimension: env.IMAGE_TRANSFORMATION_LIMIT_MAX_SIZE,
      maxSourceBytes: env.IMAGE_TRANSFORMATION_MAX_SOURCE_BYTES,
      maxSourcePixels: Math.round(env.IMAGE_TRANSFORMATION_MAX_RESOLUTION_MP * 1_000_000),
      cacheDir: path.join(dataDir, 'storage', 'renders'),
    },
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    embeddedFsync: env.EMBEDDED_FSYNC,
    workers: env.WORKERS,
    jobScheduler: env.JOB_SCHEDULER ?? true,
    jwtSigningKey: env.JWT_SIGNING_KEY,
    jwtSecret: env.JWT_SECRET,
    anonKey: env.ANON_KEY,
    serviceRoleKey: env.SERVICE_ROLE_KEY,
    apiRateLimitPerSecond: env.API_RATE_LIMIT_PER_SECOND,
    restAggregatesEnabled: env.REST_AGGREGATES_ENABLED ?? false,
    rest: {
      maxRows: env.REST_MAX_ROWS,
      planEnabled: env.REST_PLAN_ENABLED ?? false,
      schemas: env.REST_DB_SCHEMAS,
      extraSearchPath: env.REST_DB_EXTRA_SEARCH_PATH,
    },
    logLevel: env.LOG_LEVEL,
    webDistDir: path.resolve(env.WEB_DIST_DIR),
    /** X-Forwarded-For entries believed, counted from the right; 0 trusts only the peer. */
    trustedProxies: env.TRUST_PROXY,
    dataRoomPin: env.DATA_ROOM_PIN,
    // Never in production; tests opt in, so only the suites that need the seed pay for it.
    demoSeed: env.NODE_ENV !== 'production' && (env.DEMO_SEED ?? env.NODE_ENV === 'development'),
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    vercel: { token: env.VERCEL_TOKEN, apiUrl: env.VERCEL_API_URL, teamId: env.VERCEL_TEAM_ID },
    ai: aiConfig(env),
    adaptWebhooks: {
      allowedTargets: env.ADAPT_WEBHOOK_ALLOWED_TARGETS.split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
      timeoutMs: env.ADAPT_WEBHOOK_TIMEOUT_MS,
    },
    adaptNarration: { voice: env.ADAPT_NARRATION_VOICE },
    realtime: {
      maxMessageBytes: env.REALTIME_MAX_MESSAGE_BYTES,
      maxChannelsPerConnection: env.REALTIME_MAX_CHANNELS_PER_CONNECTION,
      joinsPerSecond: env.REALTIME_JOINS_PER_SECOND,
      keyJoinsPerSecond: env.REALTIME_KEY_JOINS_PER_SECOND,
      eventsPerSecond: env.REALTIME_EVENTS_PER_SECOND,
      keyEventsPerSecond: env.REALTIME_KEY_EVENTS_PER_SECOND,
      heartbeatTimeoutMs: Math.round(env.REALTIME_HEARTBEAT_TIMEOUT_SECONDS * 1000),
      peerTimeoutMs: Math.round(env.REALTIME_PEER_TIMEOUT_SECONDS * 1000),
    },
    billing: billingConfig(env),
    auth: {
      accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
      sessionLifetimeDays: env.SESSION_LIFETIME_DAYS,
      sessionInactivityDays: env.SESSION_INACTIVITY_DAYS,
      autoconfirm: env.MAILER_AUTOCONFIRM ?? false,
      disableSignup: env.AUTH_DISABLE_SIGNUP ?? false,
      passwordMinLength: env.AUTH_PASSWORD_MIN_LENGTH,
      manualLinking: env.AUTH_MANUAL_LINKING ?? true,
      anonymousUsers: env.AUTH_ANONYMOUS_USERS ?? false,
      anonymousInactiveDays: env.AUTH_ANONYMOUS_USERS_INACTIVE_DAYS,
      phone: {
        enabled: env.AUTH_PHONE ?? false,
        maxFrequencyMs: env.AUTH_SMS_MAX_FREQUENCY_SECONDS * 1000,
        twilio:
          env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN && env.TWILIO_MESSAGE_SERVICE_SID
            ? {
                accountSid: env.TWILIO_ACCOUNT_SID,
                authToken: env.TWILIO_AUTH_TOKEN,
                sender: env.TWILIO_MESSAGE_SERVICE_SID,
                apiUrl: env.TWILIO_API_URL.replace(/\/+$/, ''),
              }
            : undefined,
      },
      mfaPhone: {
        enroll: env.AUTH_MFA_PHONE_ENROLL ?? false,
        verify: env.AUTH_MFA_PHONE_VERIFY ?? env.AUTH_MFA_PHONE_ENROLL ?? false,
        maxFrequencyMs: env.AUTH_MFA_PHONE_MAX_FREQUENCY_SECONDS * 1000,
        otpLength: env.AUTH_MFA_PHONE_OTP_LENGTH,
      },
      webauthn: webauthnConfig(env),
      rateLimits: {
        signIn: env.AUTH_RATE_LIMIT_SIGN_IN,
        anonymousPerHour: env.AUTH_RATE_LIMIT_ANONYMOUS,
        smsPerHour: env.AUTH_RATE_LIMIT_SMS,
        tokenRefresh: env.AUTH_RATE_LIMIT_TOKEN_REFRESH,
        mfaVerify: env.AUTH_RATE_LIMIT_MFA_VERIFY,
      },
      passwordLockout: {
        maxFailures: env.AUTH_PASSWORD_LOCKOUT_ATTEMPTS,
        lockMs: Math.round(env.AUTH_PASSWORD_LOCKOUT_MINUTES * 60_000),
      },
      redirectOrigins: (env.AUTH_REDIRECT_ORIGINS ?? '')
        .split(',')
        .map((origin) => origin.trim().replace(/\/+$/, ''))
        .filter(Boolean),
      saml: {
        clockSkewMs: env.SAML_CLOCK_SKEW_SECONDS * 1000,
        requestTtlMs: env.SAML_REQUEST_TTL_SECONDS * 1000,
        metadataAllowedTargets: (env.SAML_METADATA_ALLOWED_TARGETS ?? '')
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean),
      },
      oidc:
        env.OIDC_ISSUER && env.OIDC_CLIENT_ID
          ? {
              name: env.OIDC_PROVIDER_NAME,
              issuer: env.OIDC_ISSUER,
              clientId: env.OIDC_CLIENT_ID,
              clientSecret: env.OIDC_CLIENT_SECRET,
            }
          : undefined,
    },
  };
}

/**
 * The WebAuthn relying party (GoTrue's WEBAUTHN_RP_*): its id and the origins whose ceremonies
 * count. Unset, they come from SITE_URL; without it, only loopback pages (served on
 * "localhost") are accepted, with the request's own origin.
 */
function webauthnConfig(env: z.infer<typeof schema>) {
  const site = env.SITE_URL && URL.canParse(env.SITE_URL) ? new URL(env.SITE_URL) : undefined;
  const origins = (env.AUTH_WEBAUTHN_RP_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  const mfaEnroll = env.AUTH_MFA_WEBAUTHN_ENROLL ?? false;
  return {
    rpId: env.AUTH_WEBAUTHN_RP_ID ?? site?.hostname ?? 'localhost',
    rpName: env.AUTH_WEBAUTHN_RP_DISPLAY_NAME,
    origins: origins.length > 0 ? origins : site ? [site.origin] : [],
    mfaEnroll,
    mfaVerify: env.AUTH_MFA_WEBAUTHN_VERIFY ?? mfaEnroll,
    passkeys: env.AUTH_PASSKEYS ?? false,
    maxPasskeysPerUser: env.AUTH_PASSKEYS_MAX_PER_USER,
  };
}

function aiConfig(env: z.infer<typeof schema>) {
  const provider = (name: 'A' | 'B') => {
    const model = env[`AI_${name}_MODEL`];
    if (!model) return undefined;
    return {
      name,
      kind: env[`AI_${name}_PROVIDER`],
      baseUrl: env[`AI_${name}_BASE_URL`]?.replace(/\/+$/, ''),
      apiKey: env[`AI_${name}_API_KEY`],
      model,
    };
  };
  const b = provider('B');
  return {
    a: provider('A'),
    b,
    bFallbackModel: b ? env.AI_B_FALLBACK_MODEL : undefined,
    timeoutMs: env.AI_TIMEOUT_MS,
  };
}

function billingConfig(env: z.infer<typeof schema>) {
  const base = env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE) : undefined;
  return {
    // The spec's beta: on unless turned off (test harnesses turn it off; decision 0601).
    betaGate: env.BETA_GATE ?? true,
    couponAttemptsPer10Minutes: env.COUPON_ATTEMPTS_PER_10_MINUTES,
    stripe: env.STRIPE_SECRET_KEY
      ? {
          secretKey: env.STRIPE_SECRET_KEY,
          webhookSecret: env.STRIPE_WEBHOOK_SECRET,
          api: base && {
            protocol: base.protocol === 'http:' ? ('http' as const) : ('https' as const),
            host: base.hostname,
            port: base.port || (base.protocol === 'http:' ? '80' : '443'),
          },
        }
      : undefined,
  };
}

function storageBackend(env: z.infer<typeof schema>) {
  if (env.STORAGE_BACKEND === 'local') return { kind: 'local' as const };
  return {
    kind: 's3' as const,
    bucket: env.S3_BUCKET!,
    prefix: env.S3_PREFIX,
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    forcePathStyle: env.S3_FORCE_PATH_STYLE ?? env.S3_ENDPOINT !== undefined,
    credentials:
      env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
        : undefined,
  };
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses an environment (defaults to `process.env`); overrides win, for tests. */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: Record<string, string | undefined> = {},
): Config {
  const result = checkedSchema.safeParse({ ...env, ...overrides });
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => `${issue.path.join('.') || 'env'}: ${issue.message}`),
    );
  }
  return toConfig(result.data);
}
