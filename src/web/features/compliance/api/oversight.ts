/**
 * What the console reviews besides the audit log: incidents and their actions (worked here:
 * the next status step, an action marked done), retention policies and runs, data subject
 * requests' status and consent records (identifiers and counts only, decision 0420).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { complianceKeys } from './compliance-keys';

export const incidentSteps = ['open', 'investigating', 'contained', 'resolved', 'closed'] as const;
export type IncidentStatus = (typeof incidentSteps)[number];

export interface IncidentAction {
  id: string;
  action_type: 'containment' | 'notification' | 'assessment';
  title: string;
  status: 'pending' | 'done';
  due_at: string;
  completed_at: string | null;
}

export interface Incident {
  id: string;
  title: string;
  severity: 'low' | 'medium' | 'high' | 'critical';
  status: IncidentStatus;
  category: string;
  organization_id: string | null;
  personal_data_involved: boolean;
  phi_involved: boolean;
  detected_at: string;
  gdpr_notify_by: string | null;
  hipaa_notify_by: string | null;
  authority_notified_at: string | null;
  incident_response_actions: IncidentAction[];
}

export function nextStep(status: IncidentStatus): IncidentStatus | null {
  return incidentSteps[incidentSteps.indexOf(status) + 1] ?? null;
}

export function useIncidents(userId: string, organizationId: string | null) {
  return useQuery({
    queryKey: complianceKeys.incidents(userId, organizationId),
    queryFn: async () => {
      const client = await getSupabase();
      let query = client
        .from('security_incidents')
        .select(
          'id, title, severity, status, category, organization_id, personal_data_involved, phi_involved, detected_at, gdpr_notify_by, hipaa_notify_by, authority_notified_at, incident_response_actions(id, action_type, title, status, due_at, completed_at)',
        );
      // Incidents without an organization (an attacking address) concern every organization.
      if (organizationId)
        query = query.or(`organization_id.eq.${organizationId},organization_id.is.null`);
      const { data, error } = await query.order('detected_at', { ascending: false }).limit(200);
      if (error) throw new Error(error.message);
      return data as Incident[];
    },
  });
}

export function useWorkIncident(userId: string, organizationId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (
      change:
        | { kind: 'status'; id: string; status: IncidentStatus }
        | { kind: 'notified'; id: string }
        | { kind: 'action'; id: string },
    ) => {
      const client = await getSupabase();
      const { error, data } =
        change.kind === 'action'
          ? await client
              .from('incident_response_actions')
              .update({ status: 'done' })
              .eq('id', change.id)
              .select('id')
          : await client
              .from('security_incidents')
              .update(
                change.kind === 'status'
                  ? { status: change.status }
                  : { authority_notified_at: new Date().toISOString() },
              )
              .eq('id', change.id)
              .select('id');
      if (error) throw new Error(error.message);
      if (data.length === 0) throw new Error('You may not change this incident.');
    },
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: complianceKeys.incidents(userId, organizationId) }),
  });
}

export interface RetentionPolicy {
  table_name: string;
  retention_period_days: number;
  legal_basis: string;
  is_active: boolean;
  action: 'delete' | 'anonymise';
  description: string;
}

export interface RetentionRun {
  id: number;
  started_at: string;
  table_name: string;
  action: string;
  rows_affected: number;
  error: string | null;
}

export function useRetention(userId: string) {
  return useQuery({
    queryKey: complianceKeys.retention(userId),
    queryFn: async () => {
      const client = await getSupabase();
      const [policies, runs] = await Promise.all([
        client
          .from('data_retention_policies')
          .select('table_name, retention_period_days, legal_basis, is_active, action, description')
          .order('table_name'),
        client
          .from('retention_runs')
          .select('id, started_at, table_name, action, rows_affected, error')
          .order('id', { ascending: false })
          .limit(50),
      ]);
      if (policies.error) throw new Error(policies.error.message);
      if (runs.error) throw new Error(runs.error.message);
      return {
        policies: policies.data as RetentionPolicy[],
        runs: (runs.data as RetentionRun[]).map((r) => ({
          ...r,
          rows_affected: Number(r.rows_affected),
        })),
      };
    },
  });
}

export interface RequestStatusRow {
  id: string;
  user_id: string;
  request_type: string;
  status: 'pending' | 'in_progress' | 'completed' | 'rejected';
  created_at: string;
  due_at: string;
  completed_at: string | null;
}

export function useRequestOverview(userId: string, organizationId: string | null) {
  return useQuery({
    queryKey: complianceKeys.requests(userId, organizationId),
    queryFn: async () => {
      const client = await getSupabase();
      const { data, error } = await client.rpc('compliance_request_overview', {
        organization: organizationId,
      });
      if (error) throw new Error(error.message);
      return data as RequestStatusRow[];
    },
  });
}

export interface ConsentCount {
  category: string;
  policy_version: string;
  granted: number;
  refused: number;
  last_decided_at: string;
}

export interface ConsentChange {
  user_id: string;
  category: string;
  granted: boolean;
  policy_version: string;
  source: string;
  recorded_at: string;
}

export function useConsentOverview(userId: string, organizationId: string | null) {
  return useQuery({
    queryKey: complianceKeys.consent(userId, organizationId),
    queryFn: async () => {
      const client = await getSupabase();
      const [counts, changes] = await Promise.all([
        client.rpc('compliance_consent_overview', { organization: organizationId }),
        client.rpc('compliance_consent_changes', { organization: organizationId }),
      ]);
      if (counts.error) throw new Error(counts.error.message);
      if (changes.error) throw new Error(changes.error.message);
      return {
        counts: (counts.data as ConsentCount[]).map((c) => ({
          ...c,
          granted: Number(c.granted),
          refused: Number(c.refused),
        })),
        changes: changes.data as ConsentChange[],
      };
    },
  });
}
