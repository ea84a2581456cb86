/**
 * /functions/v1/org-people: the organization admin's people and enrolment screens
 * (decision 0130). The router has verified the token; every route asks the database whether
 * the signed-in caller administers the organization (the helpers the policies use) before it
 * reads or writes anything, and validates its body with the schemas the web forms use.
 *
 *   GET  /organizations/{org}/members?q&role&status&page   one page of members
 *   POST /organizations/{org}/members                       invite or create a person
 *   PUT  /organizations/{org}/members/{user}/roles          replace their roles
 *   POST /organizations/{org}/members/{user}/deactivate     and /reactivate
 *   POST /organizations/{org}/members/{user}/invitation     mail a new invitation link
 *   GET  /organizations/{org}/enrolments?q&courseId&page    one page of enrolments
 *   POST /organizations/{org}/enrolments/import?dry_run=1   a CSV file (text/csv), all or nothing
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { z } from 'zod';
import {
  enrolmentQuerySchema,
  IMPORT_MAX_BYTES,
  memberQuerySchema,
  newMemberSchema,
  setRolesSchema,
} from '../../common/org-people';
import { AuthError } from '../auth/errors';
import { createMailer } from '../auth/mail';
import { isUuid } from '../auth/users';
import type { ApiEnv, GatewayDeps } from '../gateway/context';
import { checkJson } from '../gateway/ops/valid-json';
import { authBaseUrl, safeRedirect } from '../gateway/auth/http';
import { verifyLink } from '../gateway/auth/signup';
import { importEnrolments, listEnrolments } from '../learning/org-enrolments';
import {
  addMember,
  deactivateMember,
  listMembers,
  PeopleError,
  reactivateMember,
  resendInvitation,
  setMemberRoles,
} from '../learning/org-people';
import type { EdgeFunctionDefinition } from './types';

/** Where an invitation's link signs the invitee in: the page that asks for a password. */
export const INVITE_LANDING_PATH = '/reset-password?invited=1';

function fieldErrors(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.join('.') || 'body';
    fields[key] ??= issue.message;
  }
  return fields;
}

/**
 * The body checked the one way (decision 0026), in this function's shape for the web forms:
 * a message and the first problem per field. The router has already cut it at the limit.
 */
async function parseBody<T extends z.ZodType>(c: Context<ApiEnv>, schema: T): Promise<z.infer<T>> {
  const checked = await checkJson(c.req.raw, Number.POSITIVE_INFINITY, schema);
  if (checked.ok) return checked.data;
  const { rejection } = checked;
  if (rejection.problem !== 'invalid')
    throw new PeopleError(400, 'invalid_input', 'Send a JSON body.');
  const fields = fieldErrors(rejection.issues);
  throw Object.assign(
    new PeopleError(400, 'invalid_input', Object.values(fields)[0] ?? 'Check the form.'),
    { fields },
  );
}

function createApp(deps: GatewayDeps) {
  const app = new Hono<ApiEnv>();
  const mailer = createMailer(deps.config, deps.db, deps.log);

  /** The signed-in caller's id; the service role and anon have no organization to manage. */
  const actorOf = (c: Context<ApiEnv>): string => {
    const claims = c.get('claims');
    if (claims.role !== 'authenticated' || !isUuid(claims.sub))
      throw new PeopleError(403, 'forbidden', 'Sign in as an administrator of the organization.');
    return claims.sub;
  };
  const param = (c: Context<ApiEnv>, name: 'org' | 'user'): string => {
    const value = c.req.param(name);
    if (!isUuid(value))
      throw new PeopleError(
        404,
        'not_found',
        name === 'org' ? 'No such organization' : 'No such member',
      );
    return value;
  };
  const linkFor = (c: Context<ApiEnv>) => {
    const services = { config: deps.config };
    const base = authBaseUrl(services, c);
    const redirectTo = safeRedirect(services, c, INVITE_LANDING_PATH);
    return (tokenHash: string) => verifyLink(base, tokenHash, 'invite', redirectTo);
  };

  app.use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    await next();
  });

  app.onError((error, c) => {
    if (error instanceof PeopleError) {
      const fields = (error as PeopleError & { fields?: Record<string, string> }).fields;
      return c.json({ code: error.code, message: error.message, fields }, error.status);
    }
    if (error instanceof AuthError) {
      const field = error.code === 'weak_password' ? { password: error.message } : undefined;
      return c.json(
        { code: error.code, message: error.message, fields: field },
        error.status as 400,
      );
    }
    throw error;
  });

  app.get('/organizations/:org/members', async (c) => {
    const query = memberQuerySchema.parse(c.req.query());
    return c.json(await listMembers(deps.db, actorOf(c), param(c, 'org'), query));
  });

  app.post('/organizations/:org/members', async (c) => {
    const actor = actorOf(c);
    const org = param(c, 'org');
    const input = await parseBody(c, newMemberSchema);
    const added = await addMember(deps.db, actor, org, input, linkFor(c));
    if (added.mail) await mailer.send(added.mail);
    return c.json({ member: added.member, outcome: added.outcome }, 201);
  });

  app.put('/organizations/:org/members/:user/roles', async (c) => {
    const actor = actorOf(c);
    const { roles } = await parseBody(c, setRolesSchema);
    const member = await setMemberRoles(deps.db, actor, param(c, 'org'), param(c, 'user'), roles);
    return c.json({ member });
  });

  app.post('/organizations/:org/members/:user/deactivate', async (c) =>
    c.json(await deactivateMember(deps.db, actorOf(c), param(c, 'org'), param(c, 'user'))),
  );

  app.post('/organizations/:org/members/:user/reactivate', async (c) =>
    c.json({
      member: await reactivateMember(deps.db, actorOf(c), param(c, 'org'), param(c, 'user')),
    }),
  );

  app.post('/organizations/:org/members/:user/invitation', async (c) => {
    const mail = await resendInvitation(
      deps.db,
      actorOf(c),
      param(c, 'org'),
      param(c, 'user'),
      linkFor(c),
    );
    await mailer.send(mail);
    return c.json({ sent: true });
  });

  app.get('/organizations/:org/enrolments', async (c) => {
    const query = enrolmentQuerySchema.parse(c.req.query());
    return c.json(await listEnrolments(deps.db, actorOf(c), param(c, 'org'), query));
  });

  app.post('/organizations/:org/enrolments/import', async (c) => {
    const actor = actorOf(c);
    const org = param(c, 'org');
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    const dryRun = ['1', 'true'].includes(c.req.query('dry_run') ?? '');
    const report = await importEnrolments(deps.db, actor, org, bytes, { dryRun });
    return c.json(report, report.problems.length > 0 ? 422 : 200);
  });

  return app;
}

export const orgPeopleFunction: EdgeFunctionDefinition = {
  name: 'org-people',
  // Files up to twice the import's limit reach the import, which refuses them with a message
  // that names the limit; the router answers 413 for anything larger.
  maxBodyBytes: IMPORT_MAX_BYTES * 2,
  timeoutMs: 30_000,
  create: createApp,
};
