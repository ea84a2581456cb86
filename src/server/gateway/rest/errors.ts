/**
 * PostgREST-shaped errors: `{code, message, details, hint}` with PostgREST's HTTP statuses, so
 * supabase-js surfaces them exactly as it would against Supabase.
 */
import { DatabaseUnavailableError } from '../../db/errors';
import type { DbRole } from '../../db/types';

/** PostgREST's `details` is text, except PGRST201's, which lists the candidate relationships. */
export type RestErrorDetails = string | readonly Record<string, string>[] | null;

export interface RestErrorBody {
  code: string;
  message: string;
  details: RestErrorDetails;
  hint: string | null;
}

export class RestError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly details: RestErrorDetails = null,
    public readonly hint: string | null = null,
  ) {
    super(message);
    this.name = 'RestError';
  }

  toBody(): RestErrorBody {
    return { code: this.code, message: this.message, details: this.details, hint: this.hint };
  }
}

// Every PostgREST error the gateway raises is built here, with PostgREST's code, status and
// wording, so a message is changed in one place and cannot drift between call sites.

/** No `apikey` header and no bearer token. */
export function noApiKey(): RestError {
  return new RestError(401, 'PGRST302', 'No API key found in request');
}

/** A token that is not ours, malformed or expired (the verifier's message). */
export function invalidJwt(message: string): RestError {
  return new RestError(401, 'PGRST301', message);
}

/** A profile header naming a schema `REST_DB_SCHEMAS` does not expose. */
export function invalidSchema(profile: string, exposed: readonly string[]): RestError {
  return new RestError(
    406,
    'PGRST106',
    `Invalid schema: ${profile}`,
    null,
    `Only the following schemas are exposed: ${exposed.join(', ')}`,
  );
}

/** An `Accept` header naming no media type the gateway writes. */
export function mediaTypeUnavailable(types: readonly string[]): RestError {
  return new RestError(
    406,
    'PGRST107',
    `None of these media types are available: ${types.join(', ')}`,
  );
}

/** `Prefer: handling=strict` with preferences we do not understand. */
export function invalidPreferences(invalid: readonly string[]): RestError {
  return new RestError(
    400,
    'PGRST122',
    'Invalid preferences given with handling=strict',
    `Invalid preferences: ${invalid.join(', ')}`,
  );
}

/** A PATCH or DELETE that would touch more rows than `Prefer: max-affected` allows. */
export function maxAffectedViolated(affected: number): RestError {
  return new RestError(
    400,
    'PGRST124',
    'Query result exceeds max-affected preference constraint',
    `The query affects ${affected} rows`,
  );
}

export function payloadTooLarge(limit: number): RestError {
  return new RestError(
    413,
    'PGRST413',
    'Payload Too Large',
    `The request body is larger than ${limit} bytes.`,
  );
}

/** A Range header or offset that cannot be served (PGRST103); `details` says why. */
export function rangeNotSatisfiable(details: string): RestError {
  return new RestError(416, 'PGRST103', 'Requested range not satisfiable', details);
}

export function unsupportedMethod(method: string): RestError {
  return new RestError(405, 'PGRST117', `Unsupported HTTP method: ${method}`);
}

export function invalidPath(): RestError {
  return new RestError(404, 'PGRST125', 'Invalid path specified in request URL');
}

/** PGRST200: no relationship (or none matching the hint) between two relations. */
export function noRelationship(
  from: string,
  target: string,
  hint: string | undefined,
  suggestion: string | null,
  schema: string,
): RestError {
  return new RestError(
    400,
    'PGRST200',
    `Could not find a relationship between '${from}' and '${target}' in the schema cache`,
    `Searched for a foreign key relationship between '${from}' and '${target}${
      hint === undefined ? '' : `' using the hint '${hint}`
    }' in the schema '${schema}', but no matches were found.`,
    suggestion,
  );
}

/** One candidate of PGRST201, as PostgREST describes it. */
export interface RelationshipCandidate {
  /** `films!director_id` style hint that picks this candidate. */
  hint: string;
  cardinality: string;
  embedding: string;
  relationship: string;
}

/** PGRST201 (status 300): several relationships fit and no hint picks one. */
export function ambiguousRelationship(
  from: string,
  target: string,
  candidates: readonly RelationshipCandidate[],
): RestError {
  return new RestError(
    300,
    'PGRST201',
    `Could not embed because more than one relationship was found for '${from}' and '${target}'`,
    candidates.map((c) => ({
      cardinality: c.cardinality,
      embedding: c.embedding,
      relationship: c.relationship,
    })),
    `Try changing '${target}' to one of the following: ${candidates
      .map((c) => `'${c.hint}'`)
      .join(', ')}. Find the desired relationship in the 'details' key.`,
  );
}

/** PGRST123: an aggregate in `select` while aggregates are off (`REST_AGGREGATES_ENABLED`). */
export function aggregatesNotAllowed(): RestError {
  return new RestError(400, 'PGRST123', 'Use of aggregate functions is not allowed');
}

/**
 * PGRST127, answered only where PostgREST itself answers it (aggregates in a to-many spread,
 * which PostgREST 12/13 refuse too). The message is PostgREST's own wire text, which clients
 * match on; `details` says what exactly.
 */
export function notImplemented(details: string): RestError {
  return new RestError(400, 'PGRST127', 'Feature not implemented', details);
}

/** PGRST108: a filter, order or limit names an embed the select does not have. */
export function notEmbedded(name: string): RestError {
  return new RestError(400, 'PGRST108', `'${name}' is not an embedded resource in this request`);
}

/** PGRST118: `order=rel(col)` on an embed that is not to-one. */
export function relatedOrderNotToOne(from: string, target: string): RestError {
  return new RestError(
    400,
    'PGRST118',
    `A related order on '${target}' is not possible`,
    `'${from}' and '${target}' do not form a many-to-one or one-to-one relationship`,
  );
}

export function unknownFunction(
  signature: string,
  details: string,
  hint: string | null,
): RestError {
  return new RestError(
    404,
    'PGRST202',
    `Could not find the function ${signature} in the schema cache`,
    details,
    hint,
  );
}

export function ambiguousFunction(candidates: readonly string[]): RestError {
  return new RestError(
    300,
    'PGRST203',
    `Could not choose the best candidate function between: ${candidates.join(', ')}`,
    null,
    'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
  );
}

/** A server fault with nothing a client could act on; the log has the cause. */
export function internalError(): RestError {
  return new RestError(500, 'PGRST000', 'Internal server error');
}

/** A request that PostgREST's parser would refuse (PGRST100). */
export function parseError(message: string, details: string | null = null): RestError {
  return new RestError(400, 'PGRST100', message, details);
}

export function unknownRelation(name: string, schema: string): RestError {
  return new RestError(
    404,
    'PGRST205',
    `Could not find the table '${schema}.${name}' in the schema cache`,
  );
}

export function unknownColumn(column: string, relation: string): RestError {
  return new RestError(400, '42703', `column ${relation}.${column} does not exist`);
}

export function unknownWriteColumn(column: string, relation: string): RestError {
  return new RestError(
    400,
    'PGRST204',
    `Could not find the '${column}' column of '${relation}' in the schema cache`,
  );
}

export function invalidBody(message: string): RestError {
  return new RestError(400, 'PGRST102', message);
}

export function notSingular(rows: number): RestError {
  return new RestError(
    406,
    'PGRST116',
    'Cannot coerce the result to a single JSON object',
    `The result contains ${rows} rows`,
  );
}

/**
 * SQLSTATE → HTTP status, PostgREST's table (src/PostgREST/Error.hs): exact codes first, then
 * the two-character class. Anything unlisted is the client's fault (400), as in PostgREST.
 */
const exactStatus: Record<string, number> = {
  '23503': 409, // foreign_key_violation
  '23505': 409, // unique_violation
  '23P01': 409, // exclusion_violation
  '25006': 405, // read_only_sql_transaction
  '42883': 404, // undefined_function
  '42P01': 404, // undefined_table
  '42P17': 500, // invalid_object_definition
  '57P01': 503, // admin_shutdown
  P0001: 400, // raise_exception
};

const classStatus: Record<string, number> = {
  '08': 503,
  '09': 500,
  '0L': 403,
  '0P': 403,
  '25': 500,
  '28': 403,
  '2D': 500,
  '38': 500,
  '39': 500,
  '3B': 500,
  '40': 500,
  '53': 503,
  '54': 500,
  '55': 500,
  '57': 500,
  '58': 500,
  F0: 500,
  HV: 500,
  P0: 500,
  XX: 500,
};

export function statusForSqlState(sqlState: string, role: DbRole): number {
  if (sqlState === '42501') return role === 'anon' ? 401 : 403;
  const exact = exactStatus[sqlState];
  if (exact) return exact;
  // PostgREST lets a function choose the status with a custom SQLSTATE "PTxyz".
  if (/^PT\d{3}$/.test(sqlState)) return Number(sqlState.slice(2));
  return classStatus[sqlState.slice(0, 2)] ?? 400;
}

interface PgLikeError {
  code?: unknown;
  message?: unknown;
  detail?: unknown;
  hint?: unknown;
}

function isPgError(error: unknown): error is PgLikeError & { code: string } {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as PgLikeError).code === 'string' &&
    /^[0-9A-Z]{5}$/.test((error as PgLikeError).code as string)
  );
}

/** Turns a database error into the response PostgREST would give; undefined if it is not one. */
export function fromDatabaseError(error: unknown, role: DbRole): RestError | undefined {
  // PostgREST's answer when its connection to the database fails.
  if (error instanceof DatabaseUnavailableError)
    return new RestError(503, 'PGRST001', error.message);
  if (!isPgError(error)) return undefined;
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  return new RestError(
    statusForSqlState(error.code, role),
    error.code,
    text(error.message) ?? 'Database error',
    text(error.detail),
    text(error.hint),
  );
}
