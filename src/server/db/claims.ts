import type { JwtClaims, Queryable } from './types';
import { isDbRole } from './types';

/** The statement that switches a transaction to the claims' role and sets the claims. */
export function claimsStatement(claims: JwtClaims): { text: string; values: string[] } {
  if (!isDbRole(claims.role))
    throw new Error(`Refusing unknown database role: ${String(claims.role)}`);
  return {
    text: `select set_config('role', $1, true),
            set_config('request.jwt.claims', $2, true),
            set_config('request.jwt.claim.sub', $3, true),
            set_config('request.jwt.claim.role', $1, true)`,
    values: [claims.role, JSON.stringify(claims), typeof claims.sub === 'string' ? claims.sub : ''],
  };
}

/**
 * Switches the open transaction to the claims' role, the way PostgREST does: `set_config`
 * with `is_local = true` is `SET LOCAL`, and it takes bound parameters.
 */
export async function applyClaims(tx: Queryable, claims: JwtClaims): Promise<void> {
  const statement = claimsStatement(claims);
  await tx.query(statement.text, statement.values);
}
