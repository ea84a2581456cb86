/**
 * A loopback TCP proxy in front of a server, for a network that drops: `cut()` resets every
 * connection through it (no WebSocket close, no FIN: what a lost network looks like to both ends)
 * and refuses new ones until `restore()` listens on the same port again.
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
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      // A reset arrives as ECONNRESET on the other side: nothing to report.
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  async function cut() {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of open) socket.resetAndDestroy();
    await closed;
  }

  return {
    url: `http://127.0.0.1:${port}`,
    cut,
    restore: () => listen(port),
    async close() {
      if (server.listening) await cut();
    },
  };
}
