/** Query keys of the compliance console; every key carries the reviewer and the scope. */
export const complianceKeys = {
  all: ['compliance'] as const,
  scope: (userId: string, organizationId: string | null) =>
    [...complianceKeys.all, userId, organizationId ?? 'all'] as const,
  auditLog: (userId: string, organizationId: string | null, filters: object) =>
    [...complianceKeys.scope(userId, organizationId), 'audit-log', filters] as const,
  patterns: (userId: string, organizationId: string | null, days: number) =>
    [...complianceKeys.scope(userId, organizationId), 'patterns', days] as const,
  incidents: (userId: string, organizationId: string | null) =>
    [...complianceKeys.scope(userId, organizationId), 'incidents'] as const,
  retention: (userId: string) => [...complianceKeys.all, userId, 'retention'] as const,
  requests: (userId: string, organizationId: string | null) =>
    [...complianceKeys.scope(userId, organizationId), 'requests'] as const,
  consent: (userId: string, organizationId: string | null) =>
    [...complianceKeys.scope(userId, organizationId), 'consent'] as const,
};
