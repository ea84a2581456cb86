import { describe, expect, it } from 'vitest';
import { formatCommitTime, PgoutputDecoder, readFrame, statusUpdate } from './pgoutput';

/** Builds a message the way the walsender writes one: big-endian integers, C strings. */
class Writer {
  private readonly parts: Buffer[] = [];
  byte(value: string | number) {
    this.parts.push(Buffer.from([typeof value === 'string' ? value.charCodeAt(0) : value]));
    return this;
  }
  int16(value: number) {
    const b = Buffer.alloc(2);
    b.writeInt16BE(value);
    this.parts.push(b);
    return this;
  }
  int32(value: number) {
    const b = Buffer.alloc(4);
    b.writeInt32BE(value);
    this.parts.push(b);
    return this;
  }
  int64(value: bigint) {
    const b = Buffer.alloc(8);
    b.writeBigInt64BE(value);
    this.parts.push(b);
    return this;
  }
  string(value: string) {
    this.parts.push(Buffer.from(`${value}\0`, 'utf8'));
    return this;
  }
  /** TupleData: a string is a text value, null is NULL, undefined an unchanged TOAST value. */
  tuple(values: (string | null | undefined)[]) {
    this.int16(values.length);
    for (const value of values) {
      if (value === null) this.byte('n');
      else if (value === undefined) this.byte('u');
      else {
        const bytes = Buffer.from(value, 'utf8');
        this.byte('t').int32(bytes.length);
        this.parts.push(bytes);
      }
    }
    return this;
  }
  done() {
    return Buffer.concat(this.parts);
  }
}

const relation = () =>
  new Writer()
    .byte('R')
    .int32(16385)
    .string('public')
    .string('notes')
    .byte('d')
    .int16(3)
    .byte(1)
    .string('id')
    .int32(23)
    .int32(-1)
    .byte(0)
    .string('body')
    .int32(25)
    .int32(-1)
    .byte(0)
    .string('meta')
    .int32(3802)
    .int32(-1)
    .done();

describe('pgoutput decoding', () => {
  it('reads a transaction: begin, relation, insert, update, delete, commit', () => {
    const decoder = new PgoutputDecoder();
    const begin = decoder.decode(
      new Writer().byte('B').int64(0x1_0000_0010n).int64(123n).int32(740).done(),
    );
    expect(begin).toEqual({ tag: 'begin', finalLsn: 0x1_0000_0010n, commitTime: 123n, xid: 740 });

    const described = decoder.decode(relation());
    expect(described).toMatchObject({
      tag: 'relation',
      relation: {
        oid: 16385,
        schema: 'public',
        table: 'notes',
        replicaIdentity: 'default',
        columns: [
          { name: 'id', typeOid: 23, isKey: true },
          { name: 'body', typeOid: 25, isKey: false },
          { name: 'meta', typeOid: 3802, isKey: false },
        ],
      },
    });

    expect(
      decoder.decode(
        new Writer().byte('I').int32(16385).byte('N').tuple(['7', 'héllo', null]).done(),
      ),
    ).toMatchObject({
      tag: 'insert',
      relation: { table: 'notes' },
      newTuple: { values: { id: '7', body: 'héllo', meta: null }, complete: true },
    });

    // Replica identity FULL: the old row, then the new one with an unchanged TOAST value.
    expect(
      decoder.decode(
        new Writer()
          .byte('U')
          .int32(16385)
          .byte('O')
          .tuple(['7', 'héllo', '{}'])
          .byte('N')
          .tuple(['7', undefined, '{"a":1}'])
          .done(),
      ),
    ).toMatchObject({
      tag: 'update',
      old: { kind: 'full', tuple: { values: { id: '7', body: 'héllo', meta: '{}' } } },
      newTuple: { values: { id: '7', meta: '{"a":1}' }, complete: false },
    });

    // The key unchanged: no old tuple at all.
    expect(
      decoder.decode(new Writer().byte('U').int32(16385).byte('N').tuple(['7', 'x', null]).done()),
    ).toMatchObject({ tag: 'update', old: undefined, newTuple: { complete: true } });

    expect(
      decoder.decode(new Writer().byte('D').int32(16385).byte('K').tuple(['7', null, null]).done()),
    ).toMatchObject({ tag: 'delete', old: { kind: 'key', tuple: { values: { id: '7' } } } });

    expect(
      decoder.decode(new Writer().byte('C').byte(0).int64(0x10n).int64(0x48n).int64(123n).done()),
    ).toEqual({ tag: 'commit', commitLsn: 0x10n, endLsn: 0x48n, commitTime: 123n });
  });

  it('passes over messages realtime does not deliver', () => {
    const decoder = new PgoutputDecoder();
    expect(decoder.decode(new Writer().byte('O').int64(1n).string('elsewhere').done())).toEqual({
      tag: 'other',
      code: 'O',
    });
    expect(decoder.decode(new Writer().byte('T').int32(0).byte(0).done())).toEqual({
      tag: 'other',
      code: 'T',
    });
  });

  it('refuses a row of a relation it was not told about, and a cut-off value', () => {
    const decoder = new PgoutputDecoder();
    expect(() =>
      decoder.decode(new Writer().byte('I').int32(99).byte('N').tuple(['1']).done()),
    ).toThrow(/relation 99/);
    decoder.decode(relation());
    const cut = new Writer().byte('I').int32(16385).byte('N').tuple(['7', 'héllo', null]).done();
    expect(() => decoder.decode(cut.subarray(0, cut.length - 6))).toThrow(RangeError);
  });
});

describe('replication stream frames', () => {
  it('reads XLogData and keepalives', () => {
    const message = Buffer.from('B');
    const data = Buffer.concat([
      new Writer().byte('w').int64(0x10n).int64(0x20n).int64(5n).done(),
      message,
    ]);
    expect(readFrame(data)).toEqual({ kind: 'data', walEnd: 0x20n, message });
    const keepalive = new Writer().byte('k').int64(0x30n).int64(5n).byte(1).done();
    expect(readFrame(keepalive)).toEqual({
      kind: 'keepalive',
      walEnd: 0x30n,
      replyRequested: true,
    });
    expect(readFrame(Buffer.from('x'))).toBeUndefined();
  });

  it('writes a standby status update with the position written, flushed and applied', () => {
    const frame = statusUpdate(0x1_0000_0048n, Date.UTC(2000, 0, 1, 0, 0, 1));
    expect(frame).toHaveLength(34);
    expect(String.fromCharCode(frame[0]!)).toBe('r');
    for (const offset of [1, 9, 17]) expect(frame.readBigUInt64BE(offset)).toBe(0x1_0000_0048n);
    expect(frame.readBigInt64BE(25)).toBe(1_000_000n);
    expect(frame[33]).toBe(0);
  });

  it('formats commit times as realtime sends them, to the microsecond', () => {
    // 2026-11-24T03:04:05.000123Z in microseconds since 2000-01-01.
    const unixUs = BigInt(Date.UTC(2026, 10, 24, 3, 4, 5)) * 1000n + 123n;
    expect(formatCommitTime(unixUs - 946_684_800_000_000n)).toBe('2026-11-24T03:04:05.000123Z');
  });
});
