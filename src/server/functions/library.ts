/**
 * /functions/v1/library (decision 0151): the course editor calls it right after uploading a
 * PDF or ePub, before saving the lesson that names it.
 *
 *   POST /extract      { "path": "<course id>/<file>" }  extracts and stores the file's text
 *   POST /extract-own  { "path": "<user id>/<file>" }    the same for a learner's own file in
 *                                                        the kb_files bucket (decision 0221)
 *
 * Answers 200 with a summary; 400/413/422 with { code, message } when the file cannot be read
 * (not a PDF/ePub, damaged, password or DRM protected, too large), and nothing is stored;
 * 403 to someone who does not teach the course.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { ApiEnv, GatewayDeps } from '../gateway/context';
import { checkJson } from '../gateway/ops/valid-json';
import { ExtractionError, extractCourseFile, LibraryError } from '../library/documents';
import { extractOwnFile } from '../library/personal-files';
import type { EdgeFunctionDefinition } from './types';

const extractSchema = z.object({ path: z.string().min(1).max(1024) });

function createApp(deps: GatewayDeps) {
  const app = new Hono<ApiEnv>();
  app.onError((error, c) => {
    if (error instanceof LibraryError || error instanceof ExtractionError) {
      return c.json({ code: error.code, message: error.message }, error.status);
    }
    throw error;
  });
  app.post('/extract', async (c) => {
    const claims = c.get('claims');
    if (claims.role !== 'authenticated') {
      throw new LibraryError(403, 'forbidden', 'Sign in as someone who teaches the course.');
    }
    const checked = await checkJson(c.req.raw, Number.POSITIVE_INFINITY, extractSchema);
    if (!checked.ok) {
      throw new LibraryError(400, 'invalid_input', 'Send { "path": "<course id>/<file>" }.');
    }
    return c.json(await extractCourseFile(deps, claims, checked.data.path));
  });
  app.post('/extract-own', async (c) => {
    const claims = c.get('claims');
    if (claims.role !== 'authenticated') {
      throw new LibraryError(403, 'forbidden', 'Sign in to add files to your knowledge base.');
    }
    const checked = await checkJson(c.req.raw, Number.POSITIVE_INFINITY, extractSchema);
    if (!checked.ok) {
      throw new LibraryError(400, 'invalid_input', 'Send { "path": "<your user id>/<file>" }.');
    }
    return c.json(await extractOwnFile(deps, claims, checked.data.path));
  });
  return app;
}

export const libraryFunction: EdgeFunctionDefinition = {
  name: 'library',
  // A 300-page book takes a few seconds on a busy machine.
  timeoutMs: 120_000,
  maxBodyBytes: 4096,
  create: createApp,
};
