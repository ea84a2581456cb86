import { describe, expect, it } from 'vitest';
import { decodeBinary, decodeText, encodeBroadcast, encodeReply, FrameError } from './serializer';

const encoder = new TextEncoder();

/** A kind 3 frame as realtime-js's serializer builds it (lengths, encoding, strings, payload). */
function userBroadcastPush(
  parts: { joinRef: string; ref: string; topic: string; event: string; metadata?: string },
  encoding: number,
  payload: Uint8Array,
): Uint8Array {
  const strings = [parts.joinRef, parts.ref, parts.topic, parts.event, parts.metadata ?? ''].map(
    (s) => encoder.encode(s),
  );
  const header = [3, ...strings.map((s) => s.length), encoding];
  const bytes = new Uint8Array(
    header.length + strings.reduce((n, s) => n + s.length, 0) + payload.length,
  );
  bytes.set(header, 0);
  let offset = header.length;
  for (const s of strings) {
    bytes.set(s, offset);
    offset += s.length;
  }
  bytes.set(payload, offset);
  return bytes;
}

describe('realtime serializer', () => {
  it('reads 2.0.0 arrays and 1.0.0 objects', () => {
    expect(decodeText('2.0.0', '["1","2","realtime:room","phx_join",{"a":1}]')).toEqual({
      joinRef: '1',
      ref: '2',
      topic: 'realtime:room',
      event: 'phx_join',
      payload: { a: 1 },
    });
    expect(
      decodeText('1.0.0', '{"topic":"phoenix","event":"heartbeat","payload":{},"ref":"5"}'),
    ).toEqual({ joinRef: null, ref: '5', topic: 'phoenix', event: 'heartbeat', payload: {} });
  });

  it('refuses frames of the wrong shape instead of throwing something else', () => {
    for (const [vsn, text] of [
      ['2.0.0', 'not json'],
      ['2.0.0', '{"topic":"x"}'],
      ['2.0.0', '[null,null,1,"e",{}]'],
      ['1.0.0', '[null,null,"t","e",{}]'],
      ['1.0.0', '{"topic":"t","event":{},"payload":{}}'],
    ] as const)
      expect(() => decodeText(vsn, text), text).toThrow(FrameError);
  });

  it('decodes a JSON and a binary user broadcast push', () => {
    const json = decodeBinary(
      userBroadcastPush(
        { joinRef: '3', ref: '4', topic: 'realtime:r', event: 'cursor' },
        1,
        encoder.encode('{"x":1}'),
      ),
    );
    expect(json).toMatchObject({
      joinRef: '3',
      ref: '4',
      topic: 'realtime:r',
      event: 'broadcast',
      broadcast: { event: 'cursor', body: { kind: 'json', json: '{"x":1}' } },
    });
    const binary = decodeBinary(
      userBroadcastPush(
        { joinRef: '', ref: '', topic: 'realtime:r', event: 'b' },
        0,
        new Uint8Array([9, 8]),
      ),
    );
    expect(binary.joinRef).toBeNull();
    expect(binary.broadcast.body).toEqual({ kind: 'binary', bytes: new Uint8Array([9, 8]) });
  });

  it('refuses truncated, unknown and invalid binary frames', () => {
    const good = userBroadcastPush(
      { joinRef: '1', ref: '2', topic: 'realtime:r', event: 'e' },
      1,
      encoder.encode('{}'),
    );
    expect(() => decodeBinary(good.subarray(0, 10))).toThrow(FrameError);
    expect(() => decodeBinary(new Uint8Array([7, 0, 0, 0, 0, 0, 1]))).toThrow(FrameError);
    const badJson = userBroadcastPush(
      { joinRef: '1', ref: '2', topic: 'realtime:r', event: 'e' },
      1,
      encoder.encode('{'),
    );
    expect(() => decodeBinary(badJson)).toThrow(FrameError);
  });

  it('encodes broadcasts as kind 4 frames for 2.0.0 and JSON messages for 1.0.0', () => {
    const frame = encodeBroadcast('2.0.0', 'realtime:r', 'ev', { kind: 'json', json: '{"a":1}' });
    expect(frame).toBeInstanceOf(Uint8Array);
    const bytes = frame as Uint8Array;
    expect([...bytes.subarray(0, 5)]).toEqual([4, 10, 2, 0, 1]);
    expect(new TextDecoder().decode(bytes.subarray(5))).toBe('realtime:rev{"a":1}');

    const text = encodeBroadcast('1.0.0', 'realtime:r', 'ev', { kind: 'json', json: '{"a":1}' });
    expect(JSON.parse(text as string)).toEqual({
      join_ref: null,
      ref: null,
      topic: 'realtime:r',
      event: 'broadcast',
      payload: { type: 'broadcast', event: 'ev', payload: { a: 1 } },
    });
    expect(
      encodeBroadcast('1.0.0', 'realtime:r', 'ev', { kind: 'binary', bytes: new Uint8Array([1]) }),
    ).toBeUndefined();
  });

  it('answers with phx_reply in each version', () => {
    const request = { joinRef: '1', ref: '2', topic: 'realtime:r' };
    expect(JSON.parse(encodeReply('2.0.0', request, 'ok', { postgres_changes: [] }))).toEqual([
      '1',
      '2',
      'realtime:r',
      'phx_reply',
      { status: 'ok', response: { postgres_changes: [] } },
    ]);
    expect(JSON.parse(encodeReply('1.0.0', request, 'error', { reason: 'x' }))).toEqual({
      join_ref: '1',
      ref: '2',
      topic: 'realtime:r',
      event: 'phx_reply',
      payload: { status: 'error', response: { reason: 'x' } },
    });
  });
});
