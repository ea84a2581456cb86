/**
 * A fresh RSA key pair and a self-signed X.509 certificate for a test identity provider, made
 * with node:crypto and a few lines of DER, so no private key is checked in and no tool beyond
 * Node is needed. Test use only.
 */
import {
  createPrivateKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  X509Certificate,
} from 'node:crypto';

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const tlv = (tag: number, content: Buffer) =>
  Buffer.concat([Buffer.from([tag]), length(content.length), content]);
const sequence = (...parts: Buffer[]) => tlv(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => tlv(0x31, Buffer.concat(parts));

function integer(bytes: Buffer): Buffer {
  return tlv(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const out = [a! * 40 + b!];
  for (const value of rest) {
    const chunk: number[] = [];
    let v = value;
    do {
      chunk.unshift(v & 0x7f);
      v >>= 7;
    } while (v > 0);
    for (let i = 0; i < chunk.length - 1; i += 1) chunk[i]! |= 0x80;
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

function utcTime(date: Date): Buffer {
  const iso = date.toISOString();
  const text = `${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  return tlv(0x17, Buffer.from(text, 'ascii'));
}

export interface TestKeyPair {
  /** PKCS#8 PEM. */
  privateKey: string;
  /** PEM certificate. */
  certificatePem: string;
  /** The certificate as base64 DER, as metadata carries it. */
  certificate: string;
}

export function selfSignedCertificate(commonName: string): TestKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const sha256WithRsa = sequence(oid('1.2.840.113549.1.1.11'), tlv(0x05, Buffer.alloc(0)));
  const name = sequence(set(sequence(oid('2.5.4.3'), tlv(0x0c, Buffer.from(commonName)))));
  const now = Date.now();
  // DER wants a positive serial in its shortest form: a random first byte of 0x00 (then a
  // redundant leading zero) made OpenSSL refuse about one certificate in 500.
  const serial = randomBytes(12);
  serial[0] = (serial[0]! & 0x7f) | 0x01;
  const tbs = sequence(
    tlv(0xa0, integer(Buffer.from([2]))),
    integer(serial),
    sha256WithRsa,
    name,
    sequence(utcTime(new Date(now - 3600_000)), utcTime(new Date(now + 365 * 86400_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = sequence(tbs, sha256WithRsa, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const certificate = new X509Certificate(der);
  if (!certificate.verify(publicKey)) throw new Error('self-signed certificate does not verify');
  const base64 = der.toString('base64');
  return {
    privateKey: createPrivateKey(privateKey.export({ type: 'pkcs8', format: 'pem' })).export({
      type: 'pkcs8',
      format: 'pem',
    }) as string,
    certificatePem: certificate.toString(),
    certificate: base64,
  };
}
