/**
 * A lean Phoenix client for realtime benchmarks: one `ws` socket speaking vsn 2.0.0 as
 * realtime-js does (text arrays, binary kind 4 broadcasts), without realtime-js's timers, so a
 * thousand of them fit in the benchmark process. Heartbeats are left out: runs are shorter than
 * the server's heartbeat timeout.
 */
import WebSocket from 'ws';

export interface BroadcastFrame {
  topic: string;
  event: string;
  payload: unknown;
}

export interface BenchSocket {
  join(topic: string, payload?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Pushes a broadcast; with `ack` in the join config the promise settles on its reply. */
  broadcast(topic: string, event: string, payload: unknown): Promise<Record<string, unknown>>;
  onBroadcast(callback: (frame: BroadcastFrame) => void): void;
  onMessage(callback: (event: string, payload: unknown) => void): void;
  close(): void;
}

const decoder = new TextDecoder();

function decodeBroadcast(data: Buffer): BroadcastFrame {
  const topicLength = data[1]!;
  const eventLength = data[2]!;
  const metaLength = data[3]!;
  let offset = 5;
  const topic = decoder.decode(data.subarray(offset, offset + topicLength));
  offset += topicLength;
  const event = decoder.decode(data.subarray(offset, offset + eventLength));
  offset += eventLength + metaLength;
  return { topic, event, payload: JSON.parse(decoder.decode(data.subarray(offset))) };
}

export async function openBenchSocket(url: string, apiKey: string): Promise<BenchSocket> {
  const ws = new WebSocket(
    `${url.replace(/^http/, 'ws')}/realtime/v1/websocket?apikey=${apiKey}&vsn=2.0.0`,
    { perMessageDeflate: false },
  );
  let ref = 0;
  const waiting = new Map<string, (response: Record<string, unknown>) => void>();
  const broadcastListeners: ((frame: BroadcastFrame) => void)[] = [];
  const messageListeners: ((event: string, payload: unknown) => void)[] = [];
  ws.on('message', (data: Buffer, isBinary) => {
    if (isBinary) {
      const frame = decodeBroadcast(data);
      for (const listener of broadcastListeners) listener(frame);
      return;
    }
    const [, replyRef, , event, payload] = JSON.parse(String(data)) as [
      unknown,
      string | null,
      string,
      string,
      { status?: string; response?: Record<string, unknown> },
    ];
    if (event === 'phx_reply' && replyRef !== null) {
      const resolve = waiting.get(replyRef);
      waiting.delete(replyRef);
      resolve?.({ status: payload.status, ...payload.response });
      return;
    }
    for (const listener of messageListeners) listener(event, payload);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const joinRefs = new Map<string, string>();

  function push(joinRef: string | null, topic: string, event: string, payload: unknown) {
    ref += 1;
    const own = String(ref);
    return new Promise<Record<string, unknown>>((resolve) => {
      waiting.set(own, resolve);
      ws.send(JSON.stringify([joinRef, own, topic, event, payload]));
    });
  }

  return {
    async join(topic, payload = {}) {
      const joinRef = String(ref + 1);
      joinRefs.set(topic, joinRef);
      return push(joinRef, topic, 'phx_join', payload);
    },
    broadcast(topic, event, payload) {
      return push(joinRefs.get(topic) ?? null, topic, 'broadcast', {
        type: 'broadcast',
        event,
        payload,
      });
    },
    onBroadcast: (callback) => broadcastListeners.push(callback),
    onMessage: (callback) => messageListeners.push(callback),
    close: () => ws.close(),
  };
}

/** The p-th percentile (0–100) of already sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
