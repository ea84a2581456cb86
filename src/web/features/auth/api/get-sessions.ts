/** The user's sessions from the auth service's `GET /user/sessions`. */
import { useQuery } from '@tanstack/react-query';
import { getClientConfig } from '@/lib/client-config';
import { authKeys } from './auth-keys';

export interface SessionItem {
  id: string;
  aal: string;
  user_agent: string | null;
  ip: string | null;
  created_at: string;
  refreshed_at: string;
  current: boolean;
}

// supabase-js has no call for this endpoint, so it is fetched with the client's own settings.
export async function getSessions(accessToken: string): Promise<SessionItem[]> {
  const { apiUrl, anonKey } = await getClientConfig();
  const response = await fetch(`${apiUrl}/auth/v1/user/sessions`, {
    headers: { apikey: anonKey, authorization: `Bearer ${accessToken}` },
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    throw new Error(`Could not list your sessions: ${body.message ?? response.statusText}`);
  }
  return (await response.json()) as SessionItem[];
}

export function useSessions(session: { id: string; accessToken: string }) {
  return useQuery({
    queryKey: authKeys.sessions(session.id),
    queryFn: () => getSessions(session.accessToken),
    retry: false,
  });
}
