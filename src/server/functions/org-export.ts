/**
 * /functions/v1/org-export: an organization's enrolments with progress and quiz results, for
 * its admins and its API keys (decision 0611).
 *
 *   GET /organizations/{org}?format=json|csv&course_id&board_id&enrolled_from&enrolled_to
 */
import { Hono } from 'hono';
import { describeIssues } from '../../common/describe-issues';
import { exportQuerySchema } from '../../common/organization-export';
import type { ApiEnv, GatewayDeps } from '../gateway/context';
import { ExportError, exportCsv, exportOrganization } from '../public-api/organization-export';
import type { EdgeFunctionDefinition } from './types';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function createApp(deps: GatewayDeps) {
  const app = new Hono<ApiEnv>();

  app.use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    await next();
  });

  app.onError((error, c) => {
    if (error instanceof ExportError)
      return c.json({ error: error.message, code: error.code }, error.status);
    throw error;
  });

  app.get('/organizations/:org', async (c) => {
    const claims = c.get('claims');
    if (claims.role !== 'authenticated')
      throw new ExportError(
        403,
        'forbidden',
        'Use an organization API key or sign in as an administrator of the organization.',
      );
    const org = c.req.param('org');
    if (!UUID.test(org)) throw new ExportError(404, 'not_found', 'No such organization');
    const parsed = exportQuerySchema.safeParse(c.req.query());
    if (!parsed.success)
      throw new ExportError(400, 'invalid_input', describeIssues(parsed.error.issues));
    const query = parsed.data;
    const { rows } = await exportOrganization(deps.db, claims, org, query);
    if (query.format === 'json') return c.json(rows);
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="organization-${org}.csv"`);
    return c.body(exportCsv(rows));
  });

  return app;
}

export const orgExportFunction: EdgeFunctionDefinition = {
  name: 'org-export',
  timeoutMs: 60_000,
  create: createApp,
};
