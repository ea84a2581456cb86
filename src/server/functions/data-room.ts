/**
 * /functions/v1/data-room: the investor data room for holders of a live grant (and the
 * service role). The router has verified the token; the database decides whether it is a
 * live data-room grant, with the same check the bucket's row-level security uses.
 *
 *   GET  /overview                   figures computed from the registry and the bucket
 *   GET  /documents                  the registry with each document's availability
 *   GET  /documents/{path}           the document's Markdown (?download=1 as an attachment)
 *   PUT  /documents/{path}           service role: publish a new version
 *   GET  /versions?path={path}       a document's version history
 *   GET  /events                     service role: who opened or downloaded what, and when
 *   POST /leave                      ends the caller's grant
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { DocumentPathError, parseDocumentPath } from '../data-room/document-path';
import { grantIdOf, hasLiveGrant, isDataRoomAdmin, revokeGrant } from '../data-room/grants';
import {
  findDocument,
  getOverview,
  GrantRequiredError,
  listAccessEvents,
  listDocuments,
  listVersions,
  recordAccess,
} from '../data-room/registry';
import { DATA_ROOM_BUCKET } from '../data-room/seed';
import {
  MAX_DOCUMENT_BYTES,
  publishVersion,
  checkVersionSize,
  newVersionSchema,
  VersionError,
} from '../data-room/versions';
import type { ApiEnv, GatewayDeps } from '../gateway/context';
import { functionJson } from '../gateway/functions/function-body';
import type { EdgeFunctionDefinition } from './types';

export const grantRequiredMessage =
  'A valid data room grant is required. Enter the access PIN to continue.';

function problem(
  c: Context,
  status: 400 | 401 | 403 | 404 | 409 | 413,
  error: string,
  code: string,
) {
  return c.json({ error, code }, status);
}

function createApp(deps: GatewayDeps) {
  const app = new Hono<ApiEnv>();
  const { storage } = deps.dataRoom;
  const isAdmin = (c: Context<ApiEnv>) => isDataRoomAdmin(deps.db, c.get('claims'));

  app.use(
    '*',
    createMiddleware<ApiEnv>(async (c, next) => {
      c.header('Cache-Control', 'no-store');
      if (!(await hasLiveGrant(deps.db, c.get('claims')))) {
        return problem(c, 401, grantRequiredMessage, 'grant_required');
      }
      return next();
    }),
  );

  app.onError((error, c) => {
    if (error instanceof GrantRequiredError)
      return problem(c, 401, grantRequiredMessage, 'grant_required');
    if (error instanceof DocumentPathError) return problem(c, 400, error.message, 'invalid_path');
    if (error instanceof VersionError)
      return problem(c, error.status, error.message, 'invalid_version');
    throw error;
  });

  app.get('/overview', async (c) => c.json(await getOverview(deps.db, c.get('claims'))));

  app.get('/documents', async (c) =>
    c.json({ documents: await listDocuments(deps.db, c.get('claims')) }),
  );

  app.get('/documents/:path{.+}', async (c) => {
    const path = parseDocumentPath(c.req.param('path'));
    const claims = c.get('claims');
    const document = await findDocument(deps.db, claims, path);
    if (!document) return problem(c, 404, `No document "${path}" in the data room.`, 'not_found');
    const stored = await storage.getObject(DATA_ROOM_BUCKET, path);
    if (!stored)
      return problem(c, 404, `The file for "${document.name}" is not available.`, 'file_missing');
    if (stored.bytes.byteLength > MAX_DOCUMENT_BYTES)
      return problem(
        c,
        413,
        `"${document.name}" is too large to open here (${stored.bytes.byteLength} bytes; the limit is ${MAX_DOCUMENT_BYTES}).`,
        'too_large',
      );
    const download = ['1', 'true'].includes(c.req.query('download') ?? '');
    const grantId = grantIdOf(claims);
    if (grantId) {
      await recordAccess(deps.db, {
        documentId: document.id,
        path,
        action: download ? 'download' : 'open',
        grantId,
        clientAddress: c.get('clientAddress'),
      });
    }
    const fileName = path.split('/').pop()!;
    return c.body(new Uint8Array(stored.bytes), 200, {
      'Content-Type': 'text/markdown; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      'Content-Disposition': `${download ? 'attachment' : 'inline'}; filename="${fileName}"`,
      'X-Document-Version': document.version,
    });
  });

  app.put(
    '/documents/:path{.+}',
    async (c, next) => {
      if (!(await isAdmin(c)))
        return problem(
          c,
          403,
          'Only an administrator (service role or admin user) can publish a new version.',
          'forbidden',
        );
      return next();
    },
    functionJson(newVersionSchema),
    async (c) => {
      const path = parseDocumentPath(c.req.param('path'));
      const input = c.req.valid('json');
      checkVersionSize(input);
      const versions = await publishVersion(deps.db, storage, {
        ...input,
        path,
        uploadedBy:
          typeof c.get('claims').sub === 'string' ? String(c.get('claims').sub) : 'service_role',
      });
      return c.json({ path, version: input.version, versions }, 201);
    },
  );

  app.get('/versions', async (c) => {
    const path = parseDocumentPath(c.req.query('path') ?? '');
    const document = await findDocument(deps.db, c.get('claims'), path);
    if (!document) return problem(c, 404, `No document "${path}" in the data room.`, 'not_found');
    return c.json({ path, versions: await listVersions(deps.db, path) });
  });

  app.get('/events', async (c) => {
    if (!(await isAdmin(c)))
      return problem(
        c,
        403,
        'Only an administrator (service role or admin user) can read access events.',
        'forbidden',
      );
    return c.json({ events: await listAccessEvents(deps.db) });
  });

  app.post('/leave', async (c) => {
    const grantId = grantIdOf(c.get('claims'));
    if (grantId) await revokeGrant(deps.db, grantId);
    return c.body(null, 204);
  });

  return app;
}

export const dataRoomFunction: EdgeFunctionDefinition = {
  name: 'data-room',
  // A new version is JSON carrying up to 1 MiB of Markdown.
  maxBodyBytes: 2 * 1024 * 1024,
  create: createApp,
};
