/**
 * /functions/v1/iep: a learner's IEP documents (decision 0422). Each call states its purpose;
 * the database checks the caller's right and writes the HIPAA access log row before any file
 * is touched (src/server/compliance/iep-documents.ts).
 *
 *   GET    /learners?organization=…                    → learners the caller may handle
 *   POST   /documents/list { learnerId, organizationId, purpose } → the learner's documents
 *   POST   /documents      multipart: learnerId, organizationId, title, purpose, file → 201 { id }
 *   POST   /documents/:id/open   { purpose }           → the file
 *   DELETE /documents/:id        { purpose }           → 204
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import {
  deleteIepDocument,
  iepLearners,
  IepError,
  listIepDocuments,
  openIepDocument,
  storeIepDocument,
  type IepCaller,
} from '../compliance/iep-documents';
import type { ApiEnv, GatewayDeps } from '../gateway/context';
import { functionJson } from '../gateway/functions/function-body';
import type { EdgeFunctionDefinition } from './types';

const MAX_FILE_BYTES = 20 * 1024 * 1024;
const purpose = z
  .string()
  .trim()
  .min(5, 'State the purpose of this access (5 to 500 characters)')
  .max(500);
const listSchema = z.object({ learnerId: z.uuid(), organizationId: z.uuid(), purpose });
const purposeSchema = z.object({ purpose });
const uploadSchema = z.object({
  learnerId: z.uuid(),
  organizationId: z.uuid(),
  title: z.string().trim().min(1, 'Give the document a title').max(200),
  purpose,
});
const uuid = z.uuid();

function describeZod(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
}

function createApp(deps: GatewayDeps) {
  const app = new Hono<ApiEnv>();

  app.use('*', async (c, next) => {
    if (c.get('claims').role !== 'authenticated')
      return c.json({ error: 'Sign in to work with IEP documents.', code: 'not_signed_in' }, 401);
    c.header('Cache-Control', 'no-store');
    await next();
  });

  app.onError((error, c) => {
    if (error instanceof IepError)
      return c.json({ error: error.message, code: error.code }, error.status);
    throw error;
  });

  const callerOf = (c: Context<ApiEnv>): IepCaller => ({
    claims: c.get('claims'),
    ip: c.get('clientAddress'),
    userAgent: c.req.header('user-agent') ?? null,
  });
  const documentId = (id: string) => {
    if (!uuid.safeParse(id).success) throw new IepError(404, 'not_found', 'No such IEP document');
    return id;
  };

  app.get('/learners', async (c) => {
    const organization = uuid.safeParse(c.req.query('organization'));
    if (!organization.success)
      throw new IepError(400, 'invalid_request', 'Name the organization (?organization=<id>).');
    return c.json(await iepLearners(deps, callerOf(c), organization.data));
  });

  app.post(
    '/documents/list',
    functionJson(listSchema, {
      hint: 'Send { "learnerId", "organizationId", "purpose" } (the purpose in 5 to 500 characters).',
    }),
    async (c) => c.json(await listIepDocuments(deps, callerOf(c), c.req.valid('json'))),
  );

  app.post('/documents', async (c) => {
    let form: Record<string, string | File>;
    try {
      form = (await c.req.parseBody()) as Record<string, string | File>;
    } catch {
      throw new IepError(400, 'invalid_request', 'Send the document as a multipart form.');
    }
    const { file, ...fields } = form;
    const parsed = uploadSchema.safeParse(fields);
    if (!parsed.success) throw new IepError(400, 'invalid_request', describeZod(parsed.error));
    if (!(file instanceof File) || file.size === 0)
      throw new IepError(400, 'invalid_file', 'Attach the document (a non-empty file).');
    if (file.size > MAX_FILE_BYTES)
      throw new IepError(400, 'invalid_file', 'The document is larger than 20 MB.');
    const stored = await storeIepDocument(deps, callerOf(c), {
      ...parsed.data,
      fileName: file.name || 'document',
      contentType: file.type || 'application/octet-stream',
      bytes: new Uint8Array(await file.arrayBuffer()),
    });
    return c.json(stored, 201);
  });

  app.post(
    '/documents/:id/open',
    functionJson(purposeSchema, {
      hint: 'Send { "purpose" }: why you open this document (5 to 500 characters).',
    }),
    async (c) => {
      const opened = await openIepDocument(
        deps,
        callerOf(c),
        documentId(c.req.param('id')),
        c.req.valid('json').purpose,
      );
      const asciiName = opened.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
      return c.body(new Uint8Array(opened.bytes), 200, {
        'Content-Type': opened.contentType,
        'Content-Disposition': `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(opened.fileName)}`,
        'Content-Length': String(opened.bytes.byteLength),
      });
    },
  );

  app.delete(
    '/documents/:id',
    functionJson(purposeSchema, {
      hint: 'Send { "purpose" }: why you delete this document (5 to 500 characters).',
    }),
    async (c) => {
      await deleteIepDocument(
        deps,
        callerOf(c),
        documentId(c.req.param('id')),
        c.req.valid('json').purpose,
      );
      return c.body(null, 204);
    },
  );

  return app;
}

export const iepFunction: EdgeFunctionDefinition = {
  name: 'iep',
  timeoutMs: 30_000,
  maxBodyBytes: MAX_FILE_BYTES + 1024 * 1024,
  create: createApp,
};
