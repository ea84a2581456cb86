import type { SupabaseClient } from '@supabase/supabase-js';

let clientPromise: Promise<SupabaseClient> | undefined;

/**
 * The one supabase-js client of the web app. URL and anon key come from the server at load
 * time (`/client-config.json`), not from the build.
 */
export function getSupabase(): Promise<SupabaseClient> {
  clientPromise ??= (async () => {
    // supabase-js (~60 KB gzip) is loaded with the first call, not with every page's entry
    // chunk: most visitors of the public pages never need it (docs/decisions/0002).
    const [{ createClient }, { getClientConfig }] = await Promise.all([
      import('@supabase/supabase-js'),
      import('./client-config'),
    ]);
    const { apiUrl, anonKey } = await getClientConfig();
    // The MFA recovery-codes API is experimental in supabase-js 2.119; the auth service serves
    // it (docs/decisions/0053).
    return createClient(apiUrl, anonKey, { auth: { experimental: { recoveryCodes: true } } });
  })();
  clientPromise.catch(() => {
    clientPromise = undefined;
  });
  return clientPromise;
}
