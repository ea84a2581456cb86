import type { JwtClaims, Queryable } from './types';
import { isDbRole } from './types';

const CLAIMS_SQL = `select set_config('role', $1, true),
            set_config('request.jwt.claims', $2, true),
            set_config('request.jwt.claim.sub', $3, true),
            set_config('request.jwt.claim.role', $1, true)`;

/**
 * Statements already made, by claims object: a verified token's claims come back as the same
 * object from the token cache (ops/verified-tokens.ts) for every request that repeats it, and
 * claims are never changed once verified.
 */
const statements = new WeakMap<JwtClaims, { text: string; values: string[] }>();

/** The statement that switches a transaction to the claims' role and sets the claims. */
export function claimsStatement(claims: JwtClaims): { text: string; values: string[] } {
  const made = statements.get(claims);
  if (made) return made;
  if (!isDbRole(claims.role))
    throw new Error(`Refusing unknown database role: ${String(claims.role)}`);
  const statement = {
    text: CLAIMS_SQL,
    values: [claims.role, JSON.stringify(claims), typeof claims.sub === 'string' ? claims.sub : ''],
  };
  statements.set(claims, statement);
  return statement;
}

/**
 * Switches the open transaction to the claims' role, the way PostgREST does: `set_config`
 * with `is_local = true` is `SET LOCAL`, and it takes bound parameters.
 */
export async function applyClaims(tx: Queryable, claims: JwtClaims): Promise<void> {
  const statement = claimsStatement(claims);
  await tx.query(statement.text, statement.values);
}
