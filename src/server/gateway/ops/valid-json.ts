/**
 * JSON request bodies checked with zod at the edge (decision 0026): read once through the one
 * body reader (so its size limit holds), parsed, checked against the route's schema and handed
 * to the handler as `c.req.valid('json')`, typed from the schema as Hono's validator does.
 *
 * Each wire format (GoTrue, Storage, our functions) says once, in its `BodyWire`, how a refused
 * body looks: routes pick their wire, never build the error themselves.
 */
import type { Context, Env, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { describeIssues } from '../../../common/describe-issues';
import { BodyError, readJsonValue } from './body';

/** Why a body was refused: the body reader's problems, or the schema's. */
export type BodyRejection =
  | { problem: 'too_large'; limit: number; message: string }
  | { problem: 'not_json'; message: string }
  | { problem: 'invalid'; message: string; issues: readonly z.core.$ZodIssue[] };

export interface BodyWire {
  /** Largest body the routes of this wire read. */
  limit: number;
  /** The wire format's answer: a response, or an error its service's `onError` renders. */
  reject(rejection: BodyRejection, c: Context): Response | Promise<Response>;
}

/**
 * Reads and checks a body: the parsed data, or why it was refused. An empty body is checked as
 * `{}`, as GoTrue and Storage read a missing body; a body the reader refuses never reaches the
 * schema.
 */
export async function checkJson<S extends z.ZodType>(
  request: Request,
  limit: number,
  schema: S,
): Promise<{ ok: true; data: z.output<S> } | { ok: false; rejection: BodyRejection }> {
  let value: unknown;
  try {
    value = (await readJsonValue(request, limit)) ?? {};
  } catch (error) {
    if (!(error instanceof BodyError)) throw error;
    return {
      ok: false,
      rejection:
        error.problem === 'too_large'
          ? { problem: 'too_large', limit, message: error.message }
          : { problem: 'not_json', message: error.message },
    };
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, data: parsed.data };
  const { issues } = parsed.error;
  return { ok: false, rejection: { problem: 'invalid', message: describeIssues(issues), issues } };
}

/** A route's body middleware: the handler reads the checked body as `c.req.valid('json')`. */
export function validJson<S extends z.ZodType, E extends Env = Env, P extends string = string>(
  wire: BodyWire,
  schema: S,
): MiddlewareHandler<E, P, { in: { json: z.input<S> }; out: { json: z.output<S> } }> {
  return async (c, next) => {
    const checked = await checkJson(c.req.raw, wire.limit, schema);
    if (!checked.ok) return wire.reject(checked.rejection, c);
    c.req.addValidatedData('json', checked.data as object);
    await next();
  };
}
