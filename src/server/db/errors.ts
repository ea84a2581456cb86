/**
 * A failure of the connection to the database, not of the statement: the server was restarted
 * or is down, the backend was terminated, the network dropped. The request cannot be answered
 * now but may succeed in a moment, so the gateway answers 503 (never 500) and `/health` says
 * the database is down.
 */
export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The database is unavailable (its connection was lost or refused). Try again shortly.', {
      cause,
    });
    this.name = 'DatabaseUnavailableError';
  }

  /** What the driver said, for logs (never for clients: it may name hosts and ports). */
  get reason(): string {
    return this.cause instanceof Error ? this.cause.message : String(this.cause);
  }
}

/**
 * SQLSTATEs of a lost or refused connection: class 08 (connection exception), the server
 * shutting down or terminating the backend (57P01–57P03), too many connections (53300).
 */
const connectionStates = /^(08...|57P0[123]|53300)$/;

/** Node's socket errors when the server cannot be reached or the socket breaks. */
const socketErrors = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** node-postgres and pg-pool's own messages for a dead or unobtainable connection. */
const driverMessages =
  /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect|Connection terminated due to connection timeout)/;

export function isConnectionFailure(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (connectionStates.test(code) || socketErrors.has(code))) {
    return true;
  }
  if (error instanceof AggregateError && error.errors.some(isConnectionFailure)) return true;
  return driverMessages.test(error.message);
}

/** `error` as a `DatabaseUnavailableError` if the connection failed, else unchanged. */
export function asUnavailable(error: unknown): unknown {
  return isConnectionFailure(error) && !(error instanceof DatabaseUnavailableError)
    ? new DatabaseUnavailableError(error)
    : error;
}
