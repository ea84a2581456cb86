/**
 * A loopback TCP proxy in front of a server, for a network that drops: `cut()` resets every
 * connection through it (no WebSocket close, no FIN: what a lost network looks like to both ends)
 * and resets each new one at once until `restore()`. The proxy keeps its listening socket the
 * whole time, so no other process can take its port while the network is down.
 */
import net from 'node:net';

export interface TcpProxy {
  /** `http://127.0.0.1:<port>`: the target server, reached through the proxy. */
  url: string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<net.Socket>();
  let down = false;
  const server = net.createServer((client) => {
    // A reset arrives as ECONNRESET on the other side: nothing to report.
    client.on('error', () => undefined);
    if (down) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  function resetAll() {
    for (const socket of open) socket.resetAndDestroy();
  }

  return {
    url: `http://127.0.0.1:${port}`,
    async cut() {
      down = true;
      resetAll();
    },
    async restore() {
      down = false;
    },
    async close() {
      down = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      resetAll();
      await closed;
    },
  };
}
