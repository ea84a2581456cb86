/**
 * Users for the privacy suites: created through the auth admin API and signed in with their
 * password, so every call goes through supabase-js as that user.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { testClient, type TestServer } from '../support/test-server';

export interface PrivacyUser {
  id: string;
  email: string;
  token: string;
  client: SupabaseClient;
}

export async function createPrivacyUser(server: TestServer, label: string): Promise<PrivacyUser> {
  const email = `${label}-${randomUUID().slice(0, 8)}@example.com`;
  const password = `pass-${randomUUID()}`;
  const created = await server
    .service()
    .auth.admin.createUser({ email, password, email_confirm: true });
  if (created.error) throw new Error(`create ${label}: ${created.error.message}`);
  const signIn = await server.anon().auth.signInWithPassword({ email, password });
  if (signIn.error) throw new Error(`sign in ${label}: ${signIn.error.message}`);
  const token = signIn.data.session.access_token;
  return {
    id: created.data.user.id,
    email,
    token,
    client: testClient(server, server.anonKey, token),
  };
}
