/**
 * /functions/v1/audit-log-export: the compliance console's export of the audit log (decision
 * 0428), streamed as it is read (src/server/compliance/audit-export.ts).
 *
 *   GET /?format=csv|json&organization&action&table&person&search&from&to
 *       → every entry the filters match that the caller may read, newest first
 */
import { Hono } from 'hono';
import { describeIssues } from '../../common/describe-issues';
import { auditExportQuery, exportAuditLog } from '../compliance/audit-export';
import type { ApiEnv, GatewayDeps } from '../gateway/context';
import type { EdgeFunctionDefinition } from './types';

function createApp(deps: GatewayDeps) {
  const app = new Hono<ApiEnv>();

  app.get('/', async (c) => {
    c.header('Cache-Control', 'no-store');
    const claims = c.get('claims');
    if (claims.role !== 'authenticated')
      return c.json({ error: 'Sign in to export the audit log.', code: 'not_signed_in' }, 401);
    const parsed = auditExportQuery.safeParse(c.req.query());
    if (!parsed.success)
      return c.json({ error: describeIssues(parsed.error.issues), code: 'invalid_request' }, 400);
    const { rows } = await deps.db.queryAsRole<{ may: boolean }>(
      claims,
      'select (audit.is_platform_admin() or cardinality(audit.readable_organizations()) > 0) as may',
    );
    if (!rows[0]?.may)
      return c.json(
        {
          error: 'Only compliance officers and platform admins export the audit log.',
          code: 'forbidden',
        },
        403,
      );
    const query = parsed.data;
    const body = await exportAuditLog(deps.db, claims, query, (outcome) =>
      deps.log.info('audit log export ended', {
        user: claims.sub,
        format: query.format,
        ...outcome,
      }),
    );
    const day = new Date().toISOString().slice(0, 10);
    return c.body(body, 200, {
      'Content-Type':
        query.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="audit-log-${day}.${query.format}"`,
      'X-Content-Type-Options': 'nosniff',
    });
  });

  return app;
}

export const auditLogExportFunction: EdgeFunctionDefinition = {
  name: 'audit-log-export',
  create: createApp,
};
