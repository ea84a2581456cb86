export type Row = Record<string, unknown>;

export interface QueryResult<R extends Row = Row> {
  rows: R[];
  /** Rows affected by INSERT/UPDATE/DELETE, or rows returned by SELECT. */
  rowCount: number;
  fields: { name: string; dataTypeID: number }[];
}

/** Something that runs SQL: the database itself or an open transaction. */
export interface Queryable {
  /** One statement with bound parameters ($1, $2, …). */
  query<R extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
  /** Several statements, no parameters (migrations, DDL). */
  exec(sql: string): Promise<void>;
}

export type DbRole = 'anon' | 'authenticated' | 'service_role';

/** The verified JWT payload a request runs with. */
export interface JwtClaims {
  role: DbRole;
  sub?: string;
  [claim: string]: unknown;
}

/** What a request sets besides its role and claims, for its transaction only. */
export interface RoleOptions {
  /**
   * The `search_path`, a list already quoted (`"api", "public"`): REST requests name their
   * schema's, as PostgREST does. Unset, the role's own path applies.
   */
  searchPath?: string;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction; rolls back if it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` in a transaction under the claims' database role with `request.jwt.claims`
   * set, so row-level security decides what the work may see and change.
   */
  asRole<T>(
    claims: JwtClaims,
    fn: (tx: Queryable) => Promise<T>,
    options?: RoleOptions,
  ): Promise<T>;
  /**
   * `asRole` for exactly one statement: the same transaction-local role and claims, in one
   * round trip on PostgreSQL (the claims and the statement are pipelined before one Sync).
   */
  queryAsRole<R extends Row = Row>(
    claims: JwtClaims,
    sql: string,
    params?: readonly unknown[],
    /** `prepare`: keep the statement prepared per connection (PostgreSQL; a bounded number). */
    options?: RoleOptions & { prepare?: boolean },
  ): Promise<QueryResult<R>>;
  /** Subscribes to NOTIFY on a channel; returns an unsubscribe function. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export const dbRoles: readonly DbRole[] = ['anon', 'authenticated', 'service_role'];

export function isDbRole(value: unknown): value is DbRole {
  return typeof value === 'string' && (dbRoles as readonly string[]).includes(value);
}
