/**
 * /functions/v1/privacy: fulfilling data subject requests (decision 0421). The database decides
 * who may (request_data_export, request_data_erasure run as the caller); the work runs as a job.
 *
 *   GET  /exports                       → the caller's own exports (newest 20)
 *   POST /exports        { requestId }  → 202 { exportId }    queue the zip for an access or
 *                                                             portability request
 *   GET  /exports/:id/link              → { url, expiresAt }  a signed link, for the person only
 *   GET  /exports/download?token=…      → the zip             with the person's own session
 *   POST /erasures       { requestId }  → 202 { requestId }  queue the erasure of the account
 */
import { Readable } from 'node:stream';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { EXPORT_LINK_SECONDS, signExportLink, verifyExportLink } from '../compliance/export-link';
import { EXPORT_BUCKET } from '../compliance/personal-data';
import { recordAuditEvent } from '../compliance/audit';
import type { ApiEnv, GatewayDeps } from '../gateway/context';
import { functionJson } from '../gateway/functions/function-body';
import type { EdgeFunctionDefinition } from './types';

class PrivacyError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409 | 410,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const requestSchema = z.object({ requestId: z.uuid() });
const uuid = z.uuid();

/** The database's refusals (their sentences are written for people) as answers. */
function refusal(error: unknown): never {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'PT404') throw new PrivacyError(404, 'not_found', message);
  if (code === 'PT409') throw new PrivacyError(409, 'conflict', message);
  if (code === '22023') throw new PrivacyError(400, 'invalid_request', message);
  if (code === '42501') throw new PrivacyError(403, 'forbidden', message);
  throw error;
}

function createApp(deps: GatewayDeps) {
  const app = new Hono<ApiEnv>();

  const callerOf = (c: Context<ApiEnv>): string => {
    const claims = c.get('claims');
    if (claims.role !== 'authenticated' || typeof claims.sub !== 'string')
      throw new PrivacyError(403, 'forbidden', 'Sign in to work with data requests.');
    return claims.sub;
  };

  app.use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    await next();
  });

  app.onError((error, c) => {
    if (error instanceof PrivacyError)
      return c.json({ error: error.message, code: error.code }, error.status);
    throw error;
  });

  app.post(
    '/exports',
    functionJson(requestSchema, { hint: 'Send { "requestId": "…" } naming the request.' }),
    async (c) => {
      callerOf(c);
      const { requestId } = c.req.valid('json');
      const { rows } = await deps.db
        .queryAsRole<{ id: string }>(
          c.get('claims'),
          'select public.request_data_export($1) as id',
          [requestId],
        )
        .catch(refusal);
      const exportId = rows[0]!.id;
      await deps.jobs.send('privacy-export', { exportId });
      return c.json({ exportId, status: 'queued' }, 202);
    },
  );

  app.get('/exports', async (c) => {
    const caller = callerOf(c);
    const { rows } = await deps.db.queryAsRole(
      c.get('claims'),
      `select id, request_id, size_bytes::int, created_at, ready_at,
              case when status = 'ready' and expires_at <= now() then 'expired' else status end as status,
              expires_at
         from privacy.data_exports where user_id = $1 order by created_at desc limit 20`,
      [caller],
    );
    return c.json(rows);
  });

  app.get('/exports/download', async (c) => {
    const caller = callerOf(c);
    const link = await verifyExportLink(deps.keys, c.req.query('token'));
    if (!link.ok) {
      if (link.reason === 'expired')
        throw new PrivacyError(
          410,
          'expired',
          'This download link has expired: ask for a new one on your Privacy page.',
        );
      throw new PrivacyError(403, 'invalid_link', 'This download link was not issued here.');
    }
    if (link.userId !== caller)
      throw new PrivacyError(403, 'forbidden', 'This download link is for another account.');
    const { rows } = await deps.db.query<{ object_path: string; live: boolean }>(
      `select object_path, expires_at > now() as live from privacy.data_exports
        where id = $1 and user_id = $2 and status = 'ready'`,
      [link.exportId, caller],
    );
    const entry = rows[0];
    if (!entry) throw new PrivacyError(404, 'not_found', 'No such export.');
    if (!entry.live)
      throw new PrivacyError(410, 'expired', 'This export has expired: file a new access request.');
    // Streamed from storage: an export can be far bigger than what a response should hold.
    const stored = await deps.storage.openObject(EXPORT_BUCKET, entry.object_path);
    if (!stored) throw new PrivacyError(410, 'expired', 'This export is no longer stored.');
    await recordAuditEvent(deps.db, {
      action: 'privacy.export_download',
      purpose: 'data subject rights',
      legalBasis: 'legal_obligation',
      tableName: 'privacy.data_exports',
      recordId: link.exportId,
      userId: caller,
      ip: c.get('clientAddress'),
      userAgent: c.req.header('user-agent') ?? null,
    });
    return c.body(Readable.toWeb(stored.body) as ReadableStream<Uint8Array>, 200, {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="lyceum-data-${new Date().toISOString().slice(0, 10)}.zip"`,
      'Content-Length': String(stored.row.metadata.size),
    });
  });

  app.get('/exports/:id/link', async (c) => {
    const caller = callerOf(c);
    const id = uuid.safeParse(c.req.param('id'));
    if (!id.success) throw new PrivacyError(400, 'invalid_request', 'The export id is not a UUID.');
    // Row-level security shows the person and those who handle their requests.
    const { rows } = await deps.db.queryAsRole<{
      user_id: string;
      status: string;
      expires_at: Date | string | null;
    }>(
      c.get('claims'),
      'select user_id, status, expires_at from privacy.data_exports where id = $1',
      [id.data],
    );
    const entry = rows[0];
    if (!entry) throw new PrivacyError(404, 'not_found', 'No such export.');
    if (entry.user_id !== caller)
      throw new PrivacyError(
        403,
        'forbidden',
        'Only the person it was prepared for downloads an export.',
      );
    if (entry.status !== 'ready')
      throw new PrivacyError(409, 'not_ready', `This export is ${entry.status}, not ready.`);
    const expires = new Date(entry.expires_at!);
    if (expires.getTime() <= Date.now())
      throw new PrivacyError(410, 'expired', 'This export has expired: file a new access request.');
    const linkExpires = new Date(
      Math.min(expires.getTime(), Date.now() + EXPORT_LINK_SECONDS * 1000),
    );
    const token = await signExportLink(deps.keys, id.data, caller, linkExpires);
    return c.json({
      url: `/functions/v1/privacy/exports/download?token=${token}`,
      expiresAt: linkExpires.toISOString(),
    });
  });

  app.post(
    '/erasures',
    functionJson(requestSchema, { hint: 'Send { "requestId": "…" } naming the request.' }),
    async (c) => {
      callerOf(c);
      const { requestId } = c.req.valid('json');
      await deps.db
        .queryAsRole(c.get('claims'), 'select public.request_data_erasure($1)', [requestId])
        .catch(refusal);
      await deps.jobs.send('privacy-erasure', { requestId });
      return c.json({ requestId, status: 'queued' }, 202);
    },
  );

  return app;
}

export const privacyFunction: EdgeFunctionDefinition = {
  name: 'privacy',
  // A zip of a heavy learner's data can take a while to send.
  timeoutMs: 60_000,
  create: createApp,
};
