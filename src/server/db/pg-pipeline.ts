/**
 * One round trip for a statement under request claims. The extended protocol runs every
 * message before a Sync in one implicit transaction, so sending
 *   Parse/Bind/Execute(set_config role and claims, is_local) + Parse/Bind/Describe/Execute(sql) + Sync
 * gives the statement the transaction-local role and claims of BEGIN; set_config; sql; COMMIT
 * without the three extra round trips. PostgREST pipelines its requests the same way.
 *
 * WORKAROUND(pg-pipelining): node-postgres has no public pipelining API, so this extends its
 * Query and adds the claims statement in front of the query's own messages.
 */
import pg from 'pg';

interface Connection {
  parse(config: { text: string; name?: string }): void;
  bind(config: { statement?: string; values: (string | null)[] }): void;
  execute(config: { portal: string }): void;
  stream: { cork?: () => void; uncork?: () => void };
}

interface QueryInternals {
  prepare(connection: Connection): void;
  handleDataRow(message: unknown): void;
  handleCommandComplete(message: unknown, connection: Connection): void;
}

/** Connections that already hold the named setup statement (parsed once per connection). */
const preparedSetup = new WeakMap<Connection, Set<string>>();

const BaseQuery = pg.Query as unknown as new (config: pg.QueryConfig) => QueryInternals;

export class QueryAfterSetup extends BaseQuery {
  /** True until the setup statement's CommandComplete: its row is not part of the result. */
  private inSetup = true;

  constructor(
    private readonly setup: { name: string; text: string; values: (string | null)[] },
    config: pg.QueryConfig,
  ) {
    super({ ...config, queryMode: 'extended' } as pg.QueryConfig);
  }

  override prepare(connection: Connection): void {
    // The setup statement has no Describe: the backend sends its DataRow without a
    // RowDescription, which handleDataRow below skips.
    let prepared = preparedSetup.get(connection);
    if (!prepared) {
      prepared = new Set();
      preparedSetup.set(connection, prepared);
    }
    if (!prepared.has(this.setup.name)) {
      connection.parse({ text: this.setup.text, name: this.setup.name });
      prepared.add(this.setup.name);
    }
    connection.bind({ statement: this.setup.name, values: this.setup.values });
    connection.execute({ portal: '' });
    super.prepare(connection);
  }

  override handleDataRow(message: unknown): void {
    if (this.inSetup) return;
    super.handleDataRow(message);
  }

  override handleCommandComplete(message: unknown, connection: Connection): void {
    if (this.inSetup) {
      this.inSetup = false;
      return;
    }
    super.handleCommandComplete(message, connection);
  }
}
