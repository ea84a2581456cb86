/**
 * The web app's own Supabase client (src/web/lib/supabase.ts) in a bench process, signed in as
 * a user, so a bench runs a feature's api functions unchanged: the client fetches
 * `/client-config.json` from the page's origin, which here is the bench server. The client is
 * one per process: signing in again switches the user.
 */
import type { RunningServer } from '../../src/server/start';

/** realtime-js wants a WebSocket constructor, which Node 20 lacks; benches open no channel. */
export class RealtimeUnused {
  constructor() {
    throw new Error('realtime is not used by this benchmark');
  }
}

let realFetch: typeof fetch | undefined;

export async function webAppSignIn(
  server: RunningServer,
  email: string,
  password: string,
): Promise<void> {
  if (!realFetch) {
    const passOn = globalThis.fetch;
    realFetch = passOn;
    globalThis.fetch = (input, init) =>
      input === '/client-config.json'
        ? Promise.resolve(Response.json({ apiUrl: server.url, anonKey: server.deps.keys.anonKey }))
        : passOn(input, init);
  }
  // WORKAROUND(node20-websocket): realtime-js refuses to construct without a WebSocket.
  globalThis.WebSocket ??= RealtimeUnused as never;
  const { getSupabase } = await import('../../src/web/lib/supabase');
  const client = await getSupabase();
  const { error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw new Error(`sign in ${email}: ${error.message}`);
  await client.auth.stopAutoRefresh();
}
