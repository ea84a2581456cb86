/**
 * The one answer to "who is the client?" for limits, grants and session records.
 *
 * By default only the TCP peer counts: an `X-Forwarded-For` header is the caller's to write,
 * so believing it would let anyone reset their per-address limits with a new header. Behind a
 * reverse proxy every peer is the proxy, so `TRUST_PROXY=N` says how many proxies stand in
 * front; each appends the address it saw, so the client is the N-th entry from the right
 * (entries further left were written by the client and are never believed).
 */
import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';

export type ClientAddressEnv = { Variables: { clientAddress: string } };

/** IPv4 peers of a dual-stack socket arrive as "::ffff:1.2.3.4"; count them as "1.2.3.4". */
function normalise(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return (mapped ? mapped[1]! : address).toLowerCase();
}

/** The TCP peer, or "unknown" when the request did not come through @hono/node-server. */
export function peerAddress(c: Context): string {
  try {
    const address = getConnInfo(c).remote.address;
    return address ? normalise(address) : 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * The address `trustedProxies` proxies in front of us saw the request come from; the peer
 * when there are none, no header, or the entry is not an IP address.
 */
export function resolveClientAddress(c: Context, trustedProxies: number): string {
  return addressBehindProxies(peerAddress(c), c.req.header('x-forwarded-for'), trustedProxies);
}

/**
 * The same rule for a raw Node request (the realtime WebSocket upgrade never reaches Hono):
 * `peer` is the socket's remote address, `forwardedFor` its X-Forwarded-For header.
 */
export function addressBehindProxies(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trustedProxies: number,
): string {
  peer = peer ? normalise(peer) : 'unknown';
  if (trustedProxies === 0 || !forwardedFor) return peer;
  const hops = forwardedFor
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const entry = hops[Math.max(0, hops.length - trustedProxies)];
  return entry && isIP(entry) ? normalise(entry) : peer;
}

/** Gateway middleware: settles the client address once per request (see `clientAddress`). */
export function clientAddresses(trustedProxies: number) {
  return createMiddleware<ClientAddressEnv>(async (c, next) => {
    c.set('clientAddress', resolveClientAddress(c, trustedProxies));
    await next();
  });
}

/**
 * The client address the gateway settled for this request. Outside the gateway (a sub-app
 * driven with `app.request` in a unit test) no header is believed: only the peer counts.
 */
export function clientAddress(c: Context): string {
  const settled: unknown = c.get('clientAddress' as never);
  return typeof settled === 'string' ? settled : peerAddress(c);
}
