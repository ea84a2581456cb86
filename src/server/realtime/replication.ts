/**
 * A logical replication stream of one publication through a temporary `pgoutput` slot of this
 * process (decision 0304). The slot lives as long as its replication connection: PostgreSQL
 * drops it when the connection ends, however the process ends, so no slot is left holding WAL.
 * A lost connection is opened again with a new slot after a backoff; changes committed while it
 * was away are not delivered (as with NOTIFY, decision 0302).
 *
 * Each transaction's row changes are handed over in commit order, followed by its commit; the
 * consumer acknowledges a commit once it has handled it, and the stream reports that position
 * to the server (and, while nothing is pending, the position of every keepalive), so the
 * server releases the WAL behind it.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../logger';
import {
  formatCommitTime,
  PgoutputDecoder,
  readFrame,
  statusUpdate,
  type Relation,
  type Tuple,
} from './pgoutput';

export const PUBLICATION = 'supabase_realtime';
export const SLOT_PREFIX = 'realtime_';

const RETRY_MS = { first: 500, max: 10_000 };
/** The walsender ends a stream that reports nothing for wal_sender_timeout (60 s by default). */
const STATUS_EVERY_MS = 10_000;

export type StreamedChange =
  | { type: 'INSERT'; relation: Relation; commitTime: string; newTuple: Tuple }
  | {
      type: 'UPDATE';
      relation: Relation;
      commitTime: string;
      old?: { kind: 'key' | 'full'; tuple: Tuple };
      newTuple: Tuple;
    }
  | {
      type: 'DELETE';
      relation: Relation;
      commitTime: string;
      old: { kind: 'key' | 'full'; tuple: Tuple };
    };

export interface StreamConsumer {
  change(change: StreamedChange): void;
  /** The transaction whose changes came before ends at `lsn`; call `acknowledge(lsn)` when handled. */
  commit(lsn: bigint): void;
}

export interface ChangeStream {
  /** Everything up to `lsn` is handled: the server may release the WAL before it. */
  acknowledge(lsn: bigint): void;
  stop(): Promise<void>;
}

interface Connection {
  sendCopyFromChunk(chunk: Buffer): void;
  on(event: 'copyData', listener: (message: { chunk: Buffer }) => void): void;
}

/**
 * Opens the stream: resolves once the slot exists, so every transaction that commits after
 * that reaches the consumer; rejects if the first connection or slot cannot be made.
 */
export async function openChangeStream(
  connectionString: string,
  consumer: StreamConsumer,
  log: Pick<Logger, 'info' | 'warn'>,
): Promise<ChangeStream> {
  let client: pg.Client | undefined;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let delay = RETRY_MS.first;
  /** The end of the last commit handed over, and of the last one the consumer handled. */
  let handedOver = 0n;
  let acknowledged = 0n;
  let inTransaction = false;
  let commitTime = '';

  function report(lsn: bigint) {
    const connection = (client as unknown as { connection?: Connection } | undefined)?.connection;
    connection?.sendCopyFromChunk(statusUpdate(lsn));
  }

  async function open(): Promise<void> {
    const slot = `${SLOT_PREFIX}${randomBytes(8).toString('hex')}`;
    const next = new pg.Client({ connectionString, replication: 'database' } as pg.ClientConfig);
    const decoder = new PgoutputDecoder();
    next.on('error', (error) => {
      if (!stopped) log.warn('realtime replication connection lost', { error: error.message });
      lost(next);
    });
    next.on('end', () => lost(next));
    try {
      await next.connect();
      await next.query(
        `CREATE_REPLICATION_SLOT ${slot} TEMPORARY LOGICAL pgoutput NOEXPORT_SNAPSHOT`,
      );
    } catch (error) {
      await next.end().catch(() => undefined);
      throw error;
    }
    const connection = (next as unknown as { connection: Connection }).connection;
    connection.on('copyData', ({ chunk }) => {
      const frame = readFrame(chunk);
      if (!frame) return;
      if (frame.kind === 'keepalive') {
        // Nothing handed over is waiting: everything the server has sent is done with.
        if (!inTransaction && acknowledged >= handedOver && frame.walEnd > acknowledged)
          acknowledged = frame.walEnd;
        if (frame.replyRequested) report(acknowledged);
        return;
      }
      const message = decoder.decode(frame.message);
      switch (message.tag) {
        case 'begin':
          inTransaction = true;
          commitTime = formatCommitTime(message.commitTime);
          return;
        case 'commit':
          inTransaction = false;
          handedOver = message.endLsn;
          consumer.commit(message.endLsn);
          return;
        case 'insert':
          consumer.change({
            type: 'INSERT',
            relation: message.relation,
            commitTime,
            newTuple: message.newTuple,
          });
          return;
        case 'update':
          consumer.change({
            type: 'UPDATE',
            relation: message.relation,
            commitTime,
            old: message.old,
            newTuple: message.newTuple,
          });
          return;
        case 'delete':
          consumer.change({
            type: 'DELETE',
            relation: message.relation,
            commitTime,
            old: message.old,
          });
          return;
        default:
          return;
      }
    });
    // The query stays open while the stream runs; it ends with the connection.
    next
      .query(
        `START_REPLICATION SLOT ${slot} LOGICAL 0/0 (proto_version '1', publication_names '${PUBLICATION}')`,
      )
      .catch((error: unknown) => {
        if (!stopped && client === next)
          log.warn('realtime replication stream ended', { error: (error as Error).message });
      });
    client = next;
    log.info('realtime changes stream from a logical replication slot', { slot });
  }

  function lost(which: pg.Client) {
    if (stopped || client !== which) return;
    client = undefined;
    inTransaction = false;
    void which.end().catch(() => undefined);
    scheduleReconnect();
  }

  function scheduleReconnect() {
    if (stopped || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      open().then(
        () => {
          delay = RETRY_MS.first;
        },
        (error: unknown) => {
          log.warn('realtime replication could not reconnect', {
            error: (error as Error).message,
          });
          delay = Math.min(delay * 2, RETRY_MS.max);
          scheduleReconnect();
        },
      );
    }, delay);
    retryTimer.unref();
  }

  await open();
  const statusTimer = setInterval(() => report(acknowledged), STATUS_EVERY_MS);
  statusTimer.unref();
  return {
    acknowledge(lsn) {
      if (lsn <= acknowledged) return;
      acknowledged = lsn;
      report(lsn);
    },
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      clearInterval(statusTimer);
      await client?.end().catch(() => undefined);
    },
  };
}
