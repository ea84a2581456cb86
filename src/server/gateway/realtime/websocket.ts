/**
 * `/realtime/v1/websocket?apikey=…&vsn=…`: the upgrade of the Node HTTP server (Hono never
 * sees it). The API key is verified before the upgrade, as Supabase Realtime does; a refused
 * upgrade gets an HTTP status and a JSON `{error}` body. Each channel then verifies its own
 * token at join (connection.ts).
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { TokenError } from '../../keys/verify';
import { createChannelAuthorizer } from '../../realtime/authorization';
import type { GatewayDeps } from '../context';
import { addressBehindProxies } from '../ops/client-address';
import { createRateLimiter } from '../ops/rate-limit';
import { cachedVerifier } from '../ops/verified-tokens';
import { RealtimeConnection, type ConnectionDeps } from './connection';
import { vsns, type Vsn } from './serializer';

export const WEBSOCKET_PATH = '/realtime/v1/websocket';

/** What the server holds for realtime; `close()` ends every connection. */
export interface RealtimeEndpoint {
  readonly connections: number;
  close(): Promise<void>;
}

function refuse(socket: Duplex, status: number, statusText: string, error: string) {
  const body = JSON.stringify({ error });
  socket.end(
    `HTTP/1.1 ${status} ${statusText}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export function attachRealtime(server: Server, deps: GatewayDeps): RealtimeEndpoint {
  const limits = deps.config.realtime;
  const verifier = cachedVerifier(deps.verifier);
  const connectionDeps: ConnectionDeps = {
    hub: deps.realtime,
    changes: deps.realtimeChanges,
    verifier,
    authorizer: createChannelAuthorizer(deps.db),
    limits,
    limiters: {
      connectionJoins: createRateLimiter(limits.joinsPerSecond),
      keyJoins: createRateLimiter(limits.keyJoinsPerSecond),
      connectionEvents: createRateLimiter(limits.eventsPerSecond),
      keyEvents: createRateLimiter(limits.keyEventsPerSecond),
    },
    metrics: deps.metrics,
    log: deps.log,
  };
  // A frame may carry a payload of the limit plus its envelope; anything larger is cut off by
  // `ws` with close code 1009 before it is read into memory.
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: limits.maxMessageBytes * 2 + 64 * 1024,
    perMessageDeflate: false,
  });
  const connections = new Set<RealtimeConnection>();

  async function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer) {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== WEBSOCKET_PATH && url.pathname !== `${WEBSOCKET_PATH}/`) {
      refuse(socket, 404, 'Not Found', 'No WebSocket endpoint at this path');
      return;
    }
    // Phoenix clients without `vsn` speak 1.0.0.
    const vsn = (url.searchParams.get('vsn') ?? '1.0.0') as Vsn;
    if (!vsns.includes(vsn)) {
      refuse(socket, 400, 'Bad Request', `Unsupported protocol version ${vsn}; use 1.0.0 or 2.0.0`);
      return;
    }
    const header = request.headers['x-api-key'] ?? request.headers.apikey;
    const apiKey = url.searchParams.get('apikey') ?? (typeof header === 'string' ? header : '');
    if (!apiKey) {
      refuse(socket, 401, 'Unauthorized', 'API key is missing');
      return;
    }
    try {
      await verifier.verify(apiKey);
    } catch (error) {
      if (!(error instanceof TokenError)) throw error;
      refuse(socket, 401, 'Unauthorized', error.message);
      return;
    }
    const forwarded = request.headers['x-forwarded-for'];
    const clientAddress = addressBehindProxies(
      request.socket.remoteAddress,
      Array.isArray(forwarded) ? forwarded.join(',') : forwarded,
      deps.config.trustedProxies,
    );
    wss.handleUpgrade(request, socket, head, (ws) => {
      const connection = new RealtimeConnection(ws, vsn, apiKey, clientAddress, connectionDeps);
      connections.add(connection);
      ws.on('close', () => connections.delete(connection));
    });
  }

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    upgrade(request, socket, head).catch((error: unknown) => {
      deps.log.error('realtime upgrade failed', { error: (error as Error).message });
      refuse(socket, 500, 'Internal Server Error', 'Error connecting to Realtime');
    });
  };
  server.on('upgrade', onUpgrade);

  // A client that sends nothing (realtime-js heartbeats every 25 s) for the timeout is gone.
  const sweep = setInterval(
    () => {
      const cutoff = Date.now() - limits.heartbeatTimeoutMs;
      for (const connection of connections)
        if (connection.lastSeen < cutoff) connection.close(1000, 'heartbeat timeout');
    },
    Math.max(50, Math.min(5000, limits.heartbeatTimeoutMs / 4)),
  );
  sweep.unref();

  return {
    get connections() {
      return connections.size;
    },
    async close() {
      server.off('upgrade', onUpgrade);
      clearInterval(sweep);
      for (const connection of connections) connection.close(1001, 'server shutting down');
      connections.clear();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
