/**
 * The SSRF guard of requests the server makes to addresses people give it (webhook deliveries,
 * SAML metadata): a target is refused when any address its host resolves
 * to is private, loopback, link-local, unspecified, multicast or otherwise not on the public
 * internet, unless the operator allow-listed it (ADAPT_WEBHOOK_ALLOWED_TARGETS). Every address
 * is checked, and the delivery then connects to a checked address, so a DNS answer that changes
 * between the check and the request (rebinding) cannot slip through.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import net, { type LookupFunction } from 'node:net';

export type AddressKind =
  'public' | 'private' | 'loopback' | 'link-local' | 'unspecified' | 'multicast' | 'reserved';

function ipv4Number(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

const V4_RANGES: Array<[string, number, AddressKind]> = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'private'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

function inV4Range(ip: string, base: string, bits: number): boolean {
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (ipv4Number(ip) & mask) >>> 0 === (ipv4Number(base) & mask) >>> 0;
}

/** The 16 bytes of an IPv6 address (with an embedded IPv4 tail expanded). */
function ipv6Bytes(ip: string): number[] {
  let text = ip.toLowerCase().split('%')[0]!;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = ipv4Number(v4[1]!);
    text = text.replace(
      v4[1]!,
      `${((n >>> 16) & 0xffff).toString(16)}:${(n & 0xffff).toString(16)}`,
    );
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (s: string | undefined) => (s ? s.split(':').filter(Boolean) : []);
  const left = parse(head);
  const right = parse(tail);
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.flatMap((g) => {
    const v = parseInt(g, 16);
    return [(v >> 8) & 0xff, v & 0xff];
  });
}

export function classifyAddress(ip: string): AddressKind {
  if (net.isIPv4(ip)) {
    for (const [base, bits, kind] of V4_RANGES) if (inV4Range(ip, base, bits)) return kind;
    return 'public';
  }
  if (!net.isIPv6(ip)) return 'reserved';
  const b = ipv6Bytes(ip);
  const zeroPrefix = (n: number) => b.slice(0, n).every((x) => x === 0);
  if (zeroPrefix(16)) return 'unspecified';
  if (zeroPrefix(15) && b[15] === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible addresses: judge the IPv4 inside.
  if (zeroPrefix(10) && ((b[10] === 0xff && b[11] === 0xff) || (b[10] === 0 && b[11] === 0))) {
    return classifyAddress(b.slice(12).join('.'));
  }
  // NAT64 (64:ff9b::/96) carries an IPv4 address too.
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b) {
    return classifyAddress(b.slice(12).join('.'));
  }
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0x80) return 'link-local';
  if ((b[0]! & 0xfe) === 0xfc) return 'private';
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0xc0) return 'private';
  if (b[0] === 0xff) return 'multicast';
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return 'reserved';
  return 'public';
}

export class WebhookTargetRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookTargetRefused';
  }
}

/** Host and optional port of an allow-list entry: `host`, `host:port`, `[v6]:port` or `v6`. */
function parseEntry(entry: string): { host: string; port: string | null } {
  const e = entry.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(e);
  if (bracketed) return { host: bracketed[1]!, port: bracketed[2] ?? null };
  if (net.isIPv6(e)) return { host: e, port: null };
  const withPort = /^(.+):(\d+)$/.exec(e);
  return withPort ? { host: withPort[1]!, port: withPort[2]! } : { host: e, port: null };
}

/** Whether the operator allow-listed this target's host (and port, when the entry names one). */
export function isAllowListed(url: URL, allowed: readonly string[]): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allowed.some((entry) => {
    const parsed = parseEntry(entry);
    return parsed.host === host && (parsed.port === null || parsed.port === port);
  });
}

/** The host's addresses: an IP literal as itself, a name through DNS (which may throw). */
export async function hostAddresses(
  host: string,
  resolve: Resolver = systemResolver,
): Promise<Array<{ address: string; family: number }>> {
  if (net.isIP(host)) return [{ address: host, family: net.isIPv6(host) ? 6 : 4 }];
  return resolve(host);
}

/** The first address that is not on the public internet, with its kind; none: undefined. */
export function firstNonPublic(
  addresses: ReadonlyArray<{ address: string }>,
): { ip: string; kind: AddressKind } | undefined {
  for (const { address: ip } of addresses) {
    const kind = classifyAddress(ip);
    if (kind !== 'public') return { ip, kind };
  }
  return undefined;
}

/** A DNS lookup for http(s).request that always answers the address the guard checked. */
export function pinnedLookup(pinned: { address: string; family: number }): LookupFunction {
  return (_host, opts, callback) => {
    if (opts && typeof opts === 'object' && 'all' in opts && opts.all) {
      (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(
        null,
        [pinned],
      );
    } else callback(null, pinned.address, pinned.family);
  };
}

export interface CheckedTarget {
  url: URL;
  /** The addresses the host resolved to, all checked; the delivery connects to the first. */
  addresses: Array<{ address: string; family: 4 | 6 }>;
}

export type Resolver = (host: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/** Parses and checks a webhook address; throws WebhookTargetRefused saying why it may not be used. */
export async function checkWebhookTarget(
  address: string,
  options: { allowed: readonly string[]; resolve?: Resolver },
): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new WebhookTargetRefused(`“${address}” is not a web address.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new WebhookTargetRefused('A webhook address must start with https:// or http://.');
  }
  if (url.username || url.password) {
    throw new WebhookTargetRefused('A webhook address may not contain a user name or password.');
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const allowListed = isAllowListed(url, options.allowed);
  let resolved: Array<{ address: string; family: number }>;
  try {
    resolved = await hostAddresses(host, options.resolve);
  } catch {
    throw new WebhookTargetRefused(`The host ${host} could not be resolved.`);
  }
  if (resolved.length === 0) throw new WebhookTargetRefused(`The host ${host} has no address.`);
  const refused = allowListed ? undefined : firstNonPublic(resolved);
  if (refused) {
    throw new WebhookTargetRefused(
      `${host} resolves to ${refused.ip}, a ${refused.kind} address: deliveries go only to public addresses ` +
        'unless an administrator allow-lists the target (ADAPT_WEBHOOK_ALLOWED_TARGETS).',
    );
  }
  return {
    url,
    addresses: resolved.map((r) => ({ address: r.address, family: r.family === 6 ? 6 : 4 })),
  };
}
