/**
 * The Phoenix channel frames realtime-js speaks (docs/reference/realtime-wire.md):
 * - `1.0.0`: text frames holding a JSON object `{join_ref, ref, topic, event, payload}`;
 * - `2.0.0` (the client's default): text frames holding a JSON array
 *   `[join_ref, ref, topic, event, payload]`, plus binary frames for broadcasts: the client
 *   sends kind 3 ("user broadcast push") and receives kind 4 ("user broadcast").
 * Decoding never throws: a frame that is not one of these is a `FrameError`.
 */
import type { BroadcastBody } from '../../realtime/hub';

export type Vsn = '1.0.0' | '2.0.0';
export const vsns: readonly Vsn[] = ['1.0.0', '2.0.0'];

export interface PhoenixMessage {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
}

/** A client broadcast as decoded from either serializer: the user event and its body. */
export interface ClientBroadcast {
  event: string;
  body: BroadcastBody;
}

export class FrameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrameError';
  }
}

const KIND_USER_BROADCAST_PUSH = 3;
const KIND_USER_BROADCAST = 4;
const ENCODING_BINARY = 0;
const ENCODING_JSON = 1;

const decoder = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

function refOrNull(value: unknown, field: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new FrameError(`${field} must be a string or null`);
}

function fromParts(
  joinRef: unknown,
  ref: unknown,
  topic: unknown,
  event: unknown,
  payload: unknown,
) {
  if (typeof topic !== 'string') throw new FrameError('topic must be a string');
  if (typeof event !== 'string') throw new FrameError('event must be a string');
  return {
    joinRef: refOrNull(joinRef, 'join_ref'),
    ref: refOrNull(ref, 'ref'),
    topic,
    event,
    payload: payload ?? {},
  } satisfies PhoenixMessage;
}

/** A text frame of either version. */
export function decodeText(vsn: Vsn, text: string): PhoenixMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new FrameError('frame is not valid JSON');
  }
  if (vsn === '2.0.0') {
    if (!Array.isArray(parsed) || parsed.length < 5)
      throw new FrameError('expected a [join_ref, ref, topic, event, payload] array');
    const [joinRef, ref, topic, event, payload] = parsed as unknown[];
    return fromParts(joinRef, ref, topic, event, payload);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new FrameError('expected a {topic, event, payload, ref} object');
  const o = parsed as Record<string, unknown>;
  return fromParts(o.join_ref, o.ref, o.topic, o.event, o.payload);
}

/**
 * A binary frame (2.0.0 only): kind 3, a broadcast pushed by the client. Layout: kind, then
 * the byte lengths of join_ref, ref, topic, user event and metadata, the payload encoding
 * (0 binary, 1 JSON), those five strings, and the payload to the end of the frame.
 */
export function decodeBinary(bytes: Uint8Array): PhoenixMessage & { broadcast: ClientBroadcast } {
  if (bytes.length < 7) throw new FrameError('binary frame too short');
  const kind = bytes[0];
  if (kind !== KIND_USER_BROADCAST_PUSH)
    throw new FrameError(`unsupported binary frame kind ${kind}`);
  const sizes = [bytes[1]!, bytes[2]!, bytes[3]!, bytes[4]!, bytes[5]!];
  const encoding = bytes[6];
  let offset = 7;
  const strings: string[] = [];
  for (const size of sizes) {
    if (offset + size > bytes.length)
      throw new FrameError('binary frame header overruns the frame');
    try {
      strings.push(decoder.decode(bytes.subarray(offset, offset + size)));
    } catch {
      throw new FrameError('binary frame header is not UTF-8');
    }
    offset += size;
  }
  const [joinRef, ref, topic, event] = strings as [string, string, string, string, string];
  const data = bytes.subarray(offset);
  let body: BroadcastBody;
  if (encoding === ENCODING_JSON) {
    let json: string;
    try {
      json = decoder.decode(data);
      JSON.parse(json);
    } catch {
      throw new FrameError('broadcast payload is not valid JSON');
    }
    body = { kind: 'json', json: json === '' ? '{}' : json };
  } else if (encoding === ENCODING_BINARY) {
    body = { kind: 'binary', bytes: data.slice() };
  } else {
    throw new FrameError(`unknown payload encoding ${encoding}`);
  }
  return {
    joinRef: joinRef || null,
    ref: ref || null,
    topic,
    event: 'broadcast',
    payload: null,
    broadcast: { event, body },
  };
}

/** A message the server pushes or a reply, as a text frame of the connection's version. */
export function encodeText(vsn: Vsn, message: PhoenixMessage): string {
  if (vsn === '2.0.0')
    return JSON.stringify([
      message.joinRef,
      message.ref,
      message.topic,
      message.event,
      message.payload,
    ]);
  return JSON.stringify({
    join_ref: message.joinRef,
    ref: message.ref,
    topic: message.topic,
    event: message.event,
    payload: message.payload,
  });
}

/** `phx_reply` to a push: `{status, response}`. */
export function encodeReply(
  vsn: Vsn,
  request: Pick<PhoenixMessage, 'joinRef' | 'ref' | 'topic'>,
  status: 'ok' | 'error',
  response: unknown = {},
): string {
  return encodeText(vsn, {
    joinRef: request.joinRef,
    ref: request.ref,
    topic: request.topic,
    event: 'phx_reply',
    payload: { status, response },
  });
}

/**
 * A broadcast delivered to a subscriber. 2.0.0 gets the binary kind 4 frame (the only way a
 * binary payload can reach the client); 1.0.0 gets the JSON message, so a binary payload
 * cannot be delivered to it (`undefined`).
 */
export function encodeBroadcast(
  vsn: Vsn,
  topic: string,
  event: string,
  body: BroadcastBody,
): string | Uint8Array | undefined {
  if (vsn === '1.0.0') {
    if (body.kind !== 'json') return undefined;
    return `{"join_ref":null,"ref":null,"topic":${JSON.stringify(topic)},"event":"broadcast","payload":{"type":"broadcast","event":${JSON.stringify(event)},"payload":${body.json}}}`;
  }
  const topicBytes = encoder.encode(topic);
  const eventBytes = encoder.encode(event);
  const data = body.kind === 'json' ? encoder.encode(body.json) : body.bytes;
  const frame = new Uint8Array(5 + topicBytes.length + eventBytes.length + data.length);
  frame[0] = KIND_USER_BROADCAST;
  frame[1] = topicBytes.length;
  frame[2] = eventBytes.length;
  frame[3] = 0;
  frame[4] = body.kind === 'json' ? ENCODING_JSON : ENCODING_BINARY;
  frame.set(topicBytes, 5);
  frame.set(eventBytes, 5 + topicBytes.length);
  frame.set(data, 5 + topicBytes.length + eventBytes.length);
  return frame;
}

/** Topic and event names travel in one-byte length fields of the binary frames. */
export function fitsBinaryHeader(value: string): boolean {
  return encoder.encode(value).length <= 255;
}
