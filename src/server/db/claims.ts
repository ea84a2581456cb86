import type { JwtClaims, Queryable } from './types';
import { isDbRole } from './types';

/**
 * Switches the open transaction to the claims' role, the way PostgREST does: `set_config`
 * with `is_local = true` is `SET LOCAL`, and it takes bound parameters.
 */
export async function applyClaims(tx: Queryable, claims: JwtClaims): Promise<void> {
  if (!isDbRole(claims.role))
    throw new Error(`Refusing unknown database role: ${String(claims.role)}`);
  await tx.query(
    `select set_config('role', $1, true),
            set_config('request.jwt.claims', $2, true),
            set_config('request.jwt.claim.sub', $3, true),
            set_config('request.jwt.claim.role', $1, true)`,
    [claims.role, JSON.stringify(claims), typeof claims.sub === 'string' ? claims.sub : ''],
  );
}
