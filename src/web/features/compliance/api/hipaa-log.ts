/**
 * The HIPAA access log (decision 0422) as the compliance officer reviews it: who accessed
 * which learner's IEP documents, how, with which roles and why; identifiers only. Read through
 * REST, so the log's row-level security decides the organizations.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import type { ChainCheck } from './audit-log';
import { complianceKeys } from './compliance-keys';

export interface HipaaAccess {
  id: number;
  timestamp: string;
  user_id: string | null;
  roles: string[];
  action: 'upload' | 'list' | 'view' | 'delete' | 'export';
  phi_accessed: string;
  document_id: string | null;
  patient_id: string;
  organization_id: string;
  purpose: string;
  ip_address: string | null;
  session_id: string | null;
  /** A refused attempt is logged too, with the database's reason (decision 0426). */
  outcome: 'granted' | 'refused';
  refusal: string | null;
}

export const HIPAA_PAGE = 200;

export function useHipaaLog(userId: string, organizationId: string | null) {
  return useQuery({
    queryKey: [...complianceKeys.scope(userId, organizationId), 'hipaa-log'],
    queryFn: async () => {
      const client = await getSupabase();
      let query = client
        .from('hipaa_audit_log')
        .select(
          'id, timestamp, user_id, roles, action, phi_accessed, document_id, patient_id, organization_id, purpose, ip_address, session_id, outcome, refusal',
        );
      if (organizationId) query = query.eq('organization_id', organizationId);
      const { data, error } = await query.order('id', { ascending: false }).limit(HIPAA_PAGE);
      if (error) throw new Error(error.message);
      return data as HipaaAccess[];
    },
  });
}

export function useVerifyHipaaLog() {
  return useMutation({
    mutationFn: async (): Promise<ChainCheck> => {
      const client = await getSupabase();
      const { data, error } = await client.rpc('verify_hipaa_access_log');
      if (error) throw new Error(error.message);
      const [row] = data as ChainCheck[];
      if (!row) throw new Error('The check returned nothing.');
      return row;
    },
  });
}
