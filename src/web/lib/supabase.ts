import type { SupabaseClient } from '@supabase/supabase-js';

export interface ClientConfig {
  apiUrl: string;
  anonKey: string;
}

let configPromise: Promise<ClientConfig> | undefined;

/** The API's URL and anon key, from the server at load time (`/client-config.json`). */
export function getClientConfig(): Promise<ClientConfig> {
  configPromise ??= (async () => {
    const response = await fetch('/client-config.json');
    if (!response.ok)
      throw new Error(`Could not load the client configuration (HTTP ${response.status})`);
    const config = (await response.json()) as ClientConfig;
    if (!config.apiUrl || !config.anonKey)
      throw new Error('The client configuration has no API URL or key');
    return config;
  })();
  configPromise.catch(() => {
    configPromise = undefined;
  });
  return configPromise;
}

let clientPromise: Promise<SupabaseClient> | undefined;

/**
 * The one supabase-js client of the web app. URL and anon key come from the server at load
 * time (`/client-config.json`), not from the build.
 */
export function getSupabase(): Promise<SupabaseClient> {
  clientPromise ??= (async () => {
    // supabase-js (~60 KB gzip) is loaded with the first call, not with every page's entry
    // chunk: most visitors of the public pages never need it (docs/decisions/0002).
    const [{ createClient }, { apiUrl, anonKey }] = await Promise.all([
      import('@supabase/supabase-js'),
      getClientConfig(),
    ]);
    // The MFA recovery-codes API is experimental in supabase-js 2.119; the auth service serves
    // it (docs/decisions/0053).
    return createClient(apiUrl, anonKey, { auth: { experimental: { recoveryCodes: true } } });
  })();
  clientPromise.catch(() => {
    clientPromise = undefined;
  });
  return clientPromise;
}
