/**
 * The deployment's settings for the browser, read from the server once per page load
 * (`/client-config.json`, src/server/gateway/client-config.ts): the API's URL and anon key, so a
 * build carries no deployment secrets, and the public switches the screens follow. One cached
 * read for every caller; a failed read is forgotten so the next call tries again. Imported
 * lazily by `supabase.ts`, so the public pages' entry chunk does not carry it (decision 0002).
 */
export interface ClientConfig {
  apiUrl: string;
  anonKey: string;
  /** BETA_GATE: sign-up needs a coupon (decision 0601). */
  betaGate: boolean;
  /** Whether checkout can take a payment (Stripe configured). */
  payments: boolean;
  /** AUTH_PASSKEYS: sign-in with a passkey (decision 0056). */
  passkeys: boolean;
  /**
   * Second factors besides the authenticator app (decision 0055): whether one can be added
   * (`enroll`) and asked for at sign-in (`verify`).
   */
  mfa: { phone: FactorSwitch; webauthn: FactorSwitch };
}

export interface FactorSwitch {
  enroll: boolean;
  verify: boolean;
}

function factorSwitch(value: unknown): FactorSwitch {
  const given = (value ?? {}) as Partial<FactorSwitch>;
  return { enroll: given.enroll === true, verify: given.verify === true };
}

let configPromise: Promise<ClientConfig> | undefined;

export function getClientConfig(): Promise<ClientConfig> {
  configPromise ??= fetch('/client-config.json').then(async (response) => {
    if (!response.ok)
      throw new Error(`Could not load the client configuration (HTTP ${response.status})`);
    const config = (await response.json()) as Partial<ClientConfig>;
    if (!config.apiUrl || !config.anonKey)
      throw new Error('The client configuration has no API URL or key');
    return {
      apiUrl: config.apiUrl,
      anonKey: config.anonKey,
      betaGate: config.betaGate === true,
      payments: config.payments === true,
      passkeys: config.passkeys === true,
      mfa: { phone: factorSwitch(config.mfa?.phone), webauthn: factorSwitch(config.mfa?.webauthn) },
    };
  });
  configPromise.catch(() => {
    configPromise = undefined;
  });
  return configPromise;
}
