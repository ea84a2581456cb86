/**
 * The frames of a logical replication stream and the messages of PostgreSQL's `pgoutput`
 * plugin, protocol version 1 (PostgreSQL 10 and later), as the walsender sends them inside
 * CopyData: https://www.postgresql.org/docs/current/protocol-replication.html and
 * protocol-logicalrep-message-formats.html. Column values stay in PostgreSQL's text form; the
 * caller turns them into JSON with the database's own conversion (decision 0304).
 */

/** XLogData (`w`) or a primary keepalive (`k`). */
export type StreamFrame =
  | { kind: 'data'; walEnd: bigint; message: Buffer }
  | { kind: 'keepalive'; walEnd: bigint; replyRequested: boolean };

export function readFrame(chunk: Buffer): StreamFrame | undefined {
  const tag = chunk[0];
  if (tag === 0x77 && chunk.length >= 25)
    return { kind: 'data', walEnd: chunk.readBigUInt64BE(9), message: chunk.subarray(25) };
  if (tag === 0x6b && chunk.length >= 18)
    return {
      kind: 'keepalive',
      walEnd: chunk.readBigUInt64BE(1),
      replyRequested: chunk[17] === 1,
    };
  return undefined;
}

/** Microseconds from the Unix epoch to PostgreSQL's (2000-01-01). */
const POSTGRES_EPOCH_US = 946_684_800_000_000n;

/**
 * A standby status update (`r`): everything up to `lsn` is written, flushed and applied, so
 * the server may release the WAL before it.
 */
export function statusUpdate(lsn: bigint, now = Date.now(), replyRequested = false): Buffer {
  const frame = Buffer.alloc(34);
  frame[0] = 0x72;
  frame.writeBigUInt64BE(lsn, 1);
  frame.writeBigUInt64BE(lsn, 9);
  frame.writeBigUInt64BE(lsn, 17);
  frame.writeBigInt64BE(BigInt(now) * 1000n - POSTGRES_EPOCH_US, 25);
  frame[33] = replyRequested ? 1 : 0;
  return frame;
}

/** A PostgreSQL timestamp (microseconds since 2000-01-01) as realtime's `commit_timestamp`. */
export function formatCommitTime(microseconds: bigint): string {
  const unixUs = microseconds + POSTGRES_EPOCH_US;
  const seconds = unixUs / 1_000_000n;
  const fraction = (unixUs % 1_000_000n).toString().padStart(6, '0');
  return `${new Date(Number(seconds) * 1000).toISOString().slice(0, 19)}.${fraction}Z`;
}

export type ReplicaIdentity = 'default' | 'nothing' | 'full' | 'index';

export interface Relation {
  oid: number;
  schema: string;
  table: string;
  replicaIdentity: ReplicaIdentity;
  columns: { name: string; typeOid: number; isKey: boolean }[];
}

/**
 * A row's columns in text form (`null` for SQL NULL). A value PostgreSQL did not send (an
 * unchanged TOASTed value of an UPDATE) is absent, and `complete` is false.
 */
export interface Tuple {
  values: Record<string, string | null>;
  complete: boolean;
}

export type PgoutputMessage =
  | { tag: 'begin'; finalLsn: bigint; commitTime: bigint; xid: number }
  | { tag: 'commit'; commitLsn: bigint; endLsn: bigint; commitTime: bigint }
  | { tag: 'relation'; relation: Relation }
  | { tag: 'insert'; relation: Relation; newTuple: Tuple }
  | {
      tag: 'update';
      relation: Relation;
      /** `key`: the old replica identity columns (sent when they changed); `full`: the old row. */
      old?: { kind: 'key' | 'full'; tuple: Tuple };
      newTuple: Tuple;
    }
  | { tag: 'delete'; relation: Relation; old: { kind: 'key' | 'full'; tuple: Tuple } }
  /** Origin, type, truncate and logical messages: nothing realtime delivers. */
  | { tag: 'other'; code: string };

class Reader {
  private offset = 0;
  constructor(private readonly buffer: Buffer) {}
  byte(): number {
    const value = this.buffer.readUInt8(this.offset);
    this.offset += 1;
    return value;
  }
  int16(): number {
    const value = this.buffer.readInt16BE(this.offset);
    this.offset += 2;
    return value;
  }
  int32(): number {
    const value = this.buffer.readInt32BE(this.offset);
    this.offset += 4;
    return value;
  }
  uint32(): number {
    const value = this.buffer.readUInt32BE(this.offset);
    this.offset += 4;
    return value;
  }
  int64(): bigint {
    const value = this.buffer.readBigInt64BE(this.offset);
    this.offset += 8;
    return value;
  }
  uint64(): bigint {
    const value = this.buffer.readBigUInt64BE(this.offset);
    this.offset += 8;
    return value;
  }
  /** A NUL-terminated string. */
  string(): string {
    const end = this.buffer.indexOf(0, this.offset);
    if (end < 0) throw new RangeError('unterminated string in a pgoutput message');
    const value = this.buffer.toString('utf8', this.offset, end);
    this.offset = end + 1;
    return value;
  }
  text(length: number): string {
    if (this.offset + length > this.buffer.length)
      throw new RangeError('a pgoutput value runs past its message');
    const value = this.buffer.toString('utf8', this.offset, this.offset + length);
    this.offset += length;
    return value;
  }
}

const identities: Record<string, ReplicaIdentity> = {
  d: 'default',
  n: 'nothing',
  f: 'full',
  i: 'index',
};

/**
 * Decodes pgoutput messages; remembers each relation as its `R` message describes it, since
 * row messages name the relation only by its OID.
 */
export class PgoutputDecoder {
  private readonly relations = new Map<number, Relation>();

  decode(message: Buffer): PgoutputMessage {
    const reader = new Reader(message);
    const code = String.fromCharCode(reader.byte());
    switch (code) {
      case 'B':
        return {
          tag: 'begin',
          finalLsn: reader.uint64(),
          commitTime: reader.int64(),
          xid: reader.uint32(),
        };
      case 'C': {
        reader.byte();
        return {
          tag: 'commit',
          commitLsn: reader.uint64(),
          endLsn: reader.uint64(),
          commitTime: reader.int64(),
        };
      }
      case 'R': {
        const oid = reader.uint32();
        // An empty namespace is pg_catalog.
        const schema = reader.string() || 'pg_catalog';
        const table = reader.string();
        const identityCode = String.fromCharCode(reader.byte());
        const replicaIdentity = identities[identityCode];
        if (!replicaIdentity) throw new Error(`unknown replica identity "${identityCode}"`);
        const count = reader.int16();
        const columns: Relation['columns'] = [];
        for (let i = 0; i < count; i += 1) {
          const flags = reader.byte();
          const name = reader.string();
          const typeOid = reader.uint32();
          reader.int32();
          columns.push({ name, typeOid, isKey: (flags & 1) === 1 });
        }
        const relation = { oid, schema, table, replicaIdentity, columns };
        this.relations.set(oid, relation);
        return { tag: 'relation', relation };
      }
      case 'I': {
        const relation = this.relation(reader.uint32());
        this.expect(reader, 'N');
        return { tag: 'insert', relation, newTuple: this.tuple(reader, relation) };
      }
      case 'U': {
        const relation = this.relation(reader.uint32());
        let next = String.fromCharCode(reader.byte());
        let old: { kind: 'key' | 'full'; tuple: Tuple } | undefined;
        if (next === 'K' || next === 'O') {
          old = { kind: next === 'K' ? 'key' : 'full', tuple: this.tuple(reader, relation) };
          next = String.fromCharCode(reader.byte());
        }
        if (next !== 'N') throw new Error(`unexpected "${next}" in a pgoutput update`);
        return { tag: 'update', relation, old, newTuple: this.tuple(reader, relation) };
      }
      case 'D': {
        const relation = this.relation(reader.uint32());
        const kind = String.fromCharCode(reader.byte());
        if (kind !== 'K' && kind !== 'O')
          throw new Error(`unexpected "${kind}" in a pgoutput delete`);
        return {
          tag: 'delete',
          relation,
          old: { kind: kind === 'K' ? 'key' : 'full', tuple: this.tuple(reader, relation) },
        };
      }
      default:
        return { tag: 'other', code };
    }
  }

  private relation(oid: number): Relation {
    const relation = this.relations.get(oid);
    if (!relation) throw new Error(`pgoutput sent a row of relation ${oid} before describing it`);
    return relation;
  }

  private expect(reader: Reader, code: string): void {
    const found = String.fromCharCode(reader.byte());
    if (found !== code) throw new Error(`expected "${code}" in a pgoutput message, got "${found}"`);
  }

  /** TupleData; a key tuple (`K`) carries NULL in its non-key columns, which are left out. */
  private tuple(reader: Reader, relation: Relation): Tuple {
    const count = reader.int16();
    const values: Record<string, string | null> = {};
    let complete = true;
    for (let i = 0; i < count; i += 1) {
      const name = relation.columns[i]?.name ?? `column_${i + 1}`;
      const kind = String.fromCharCode(reader.byte());
      if (kind === 'n') values[name] = null;
      else if (kind === 'u') complete = false;
      else if (kind === 't') values[name] = reader.text(reader.int32());
      else throw new Error(`unexpected column kind "${kind}" in a pgoutput tuple`);
    }
    return { values, complete };
  }
}
