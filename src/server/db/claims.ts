import type { JwtClaims, Queryable } from './types';
import { isDbRole } from './types';

const CLAIMS_SQL = `select set_config('role', $1, true),
            set_config('request.jwt.claims', $2, true),
            set_config('request.jwt.claim.sub', $3, true),
            set_config('request.jwt.claim.role', $1, true)`;

/** The same, and the transaction's `search_path` (a REST request's schema, as PostgREST sets it). */
const CLAIMS_AND_PATH_SQL = `${CLAIMS_SQL},
            set_config('search_path', $4, true)`;

export interface ClaimsStatement {
  /** The name it is kept prepared under on PostgreSQL: one per text. */
  name: string;
  text: string;
  values: string[];
}

interface MadeStatements {
  plain: ClaimsStatement;
  /** By `search_path` value: a REST service has one per exposed schema. */
  withPath: Map<string, ClaimsStatement>;
}

/**
 * Statements already made, by claims object: a verified token's claims come back as the same
 * object from the token cache (ops/verified-tokens.ts) for every request that repeats it, and
 * claims are never changed once verified.
 */
const statements = new WeakMap<JwtClaims, MadeStatements>();

/**
 * The statement that switches a transaction to the claims' role and sets the claims, and its
 * `search_path` when one is given (a list already quoted, e.g. `"api", "public"`; it is a bound
 * value, so it cannot end the statement, and a name Postgres cannot find is skipped).
 */
export function claimsStatement(claims: JwtClaims, searchPath?: string): ClaimsStatement {
  let made = statements.get(claims);
  if (!made) {
    if (!isDbRole(claims.role))
      throw new Error(`Refusing unknown database role: ${String(claims.role)}`);
    const values = [
      claims.role,
      JSON.stringify(claims),
      typeof claims.sub === 'string' ? claims.sub : '',
    ];
    made = { plain: { name: 'lyceum_claims', text: CLAIMS_SQL, values }, withPath: new Map() };
    statements.set(claims, made);
  }
  if (searchPath === undefined) return made.plain;
  let statement = made.withPath.get(searchPath);
  if (!statement) {
    statement = {
      name: 'lyceum_claims_path',
      text: CLAIMS_AND_PATH_SQL,
      values: [...made.plain.values, searchPath],
    };
    made.withPath.set(searchPath, statement);
  }
  return statement;
}

/**
 * Switches the open transaction to the claims' role, the way PostgREST does: `set_config`
 * with `is_local = true` is `SET LOCAL`, and it takes bound parameters.
 */
export async function applyClaims(
  tx: Queryable,
  claims: JwtClaims,
  searchPath?: string,
): Promise<void> {
  const statement = claimsStatement(claims, searchPath);
  await tx.query(statement.text, statement.values);
}
