/**
 * The vercel-analytics function's input: `{ searchParams }` naming the endpoint, either as a
 * query string (`endpoint=deployments&limit=5`, what URLSearchParams#toString gives) or as an
 * object of the same fields.
 */
import { z } from 'zod';
import { describeIssues } from '../../common/describe-issues';

export type VercelQuery =
  | { endpoint: 'projects' }
  | { endpoint: 'deployments'; limit: number; projectId?: string }
  | { endpoint: 'analytics'; projectId: string };

export const endpointNames = ['projects', 'deployments', 'analytics'] as const;
export type VercelEndpoint = (typeof endpointNames)[number];

/** Vercel ids and project names: letters, digits, `_`, `-`, `.`; nothing that could alter a URL. */
const projectId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_.-]{1,100}$/, 'projectId must be a Vercel project id or name');

const querySchema = z.discriminatedUnion('endpoint', [
  z.object({ endpoint: z.literal('projects') }),
  z.object({
    endpoint: z.literal('deployments'),
    limit: z.coerce.number().int().min(1).max(20).default(5),
    projectId: projectId.optional(),
  }),
  z.object({ endpoint: z.literal('analytics'), projectId }),
]);

/** The function's body as the edge checks it; `parseVercelRequest` reads the query inside. */
export const vercelBodySchema = z.object({
  searchParams: z.union([z.string().max(2000), z.record(z.string(), z.unknown())]),
});

export const vercelBodyHint =
  'Expected a JSON body { "searchParams": "endpoint=projects|deployments|analytics&…" }';

export type ParseResult = { ok: true; query: VercelQuery } | { ok: false; message: string };

export function parseVercelRequest(body: unknown): ParseResult {
  const outer = vercelBodySchema.safeParse(body);
  if (!outer.success) return { ok: false, message: vercelBodyHint };
  const raw = outer.data.searchParams;
  const fields =
    typeof raw === 'string' ? Object.fromEntries(new URLSearchParams(raw.replace(/^\?/, ''))) : raw;
  if (!endpointNames.includes(fields.endpoint as VercelEndpoint)) {
    return {
      ok: false,
      message: `Unknown endpoint ${JSON.stringify(fields.endpoint ?? null)}: use projects, deployments or analytics`,
    };
  }
  const parsed = querySchema.safeParse(fields);
  if (!parsed.success) return { ok: false, message: describeIssues(parsed.error.issues) };
  return { ok: true, query: parsed.data };
}
