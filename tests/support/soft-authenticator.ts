/**
 * A software WebAuthn authenticator for tests: an ES256 key pair per credential (node:crypto),
 * `none` or `packed` (self) attestation, and a signature counter that a test can rewind to
 * replay an old assertion. It answers the options a server sends (JSON with base64url fields,
 * or the ArrayBuffers supabase-js makes of them) with objects whose `toJSON()` is what a
 * browser's PublicKeyCredential gives.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

type Bytes = string | ArrayBuffer | ArrayBufferView;

function bytes(value: Bytes): Buffer {
  if (typeof value === 'string') return Buffer.from(isoBase64URL.toBuffer(value));
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

const b64url = (value: Buffer) => value.toString('base64url');
const sha256 = (value: Buffer | string) => createHash('sha256').update(value).digest();

export interface SoftCredential {
  id: Buffer;
  rpId: string;
  userHandle: Buffer;
  privateKey: KeyObject;
  coseKey: Uint8Array;
  counter: number;
}

export interface CreationOptions {
  challenge: Bytes;
  rp: { id?: string; name: string };
  user: { id: Bytes; name: string };
  excludeCredentials?: { id: Bytes }[];
}

export interface RequestOptions {
  challenge: Bytes;
  rpId?: string;
  allowCredentials?: { id: Bytes }[];
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  constructor(readonly origin: string) {}

  /** navigator.credentials.create(): a new credential, attested with `fmt`. */
  create(
    options: CreationOptions,
    {
      fmt = 'none',
      origin = this.origin,
      rpId,
    }: { fmt?: 'none' | 'packed'; origin?: string; rpId?: string } = {},
  ) {
    const rp = rpId ?? options.rp.id ?? new URL(origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
        [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
      ]),
    );
    const id = randomBytes(32);
    const credential: SoftCredential = {
      id,
      rpId: rp,
      userHandle: bytes(options.user.id),
      privateKey,
      coseKey,
      counter: 0,
    };
    const length = Buffer.alloc(2);
    length.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      sha256(rp),
      Buffer.from([0x45]), // user present, user verified, attested credential data
      Buffer.alloc(4), // counter 0
      Buffer.alloc(16), // AAGUID: none
      length,
      id,
      Buffer.from(coseKey),
    ]);
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: 'webauthn.create',
        challenge: b64url(bytes(options.challenge)),
        origin,
        crossOrigin: false,
      }),
    );
    const attStmt =
      fmt === 'packed'
        ? new Map<string, number | Uint8Array>([
            ['alg', -7],
            [
              'sig',
              new Uint8Array(
                sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), privateKey),
              ),
            ],
          ])
        : new Map();
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', fmt],
        ['attStmt', attStmt],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    );
    this.credentials.push(credential);
    const json = {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(Buffer.from(attestationObject)),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
    return { ...json, toJSON: () => json };
  }

  /** navigator.credentials.get(): an assertion by an allowed (or the only) credential. */
  get(
    options: RequestOptions,
    {
      origin = this.origin,
      credential,
      challenge,
    }: { origin?: string; credential?: SoftCredential; challenge?: Bytes } = {},
  ) {
    const allowed = (options.allowCredentials ?? []).map((c) => b64url(bytes(c.id)));
    const chosen =
      credential ??
      this.credentials.find((c) => allowed.length === 0 || allowed.includes(b64url(c.id)));
    if (!chosen) throw new Error('no credential for these options');
    chosen.counter += 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(chosen.counter);
    const authData = Buffer.concat([
      sha256(options.rpId ?? chosen.rpId),
      Buffer.from([0x05]),
      counter,
    ]);
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: b64url(bytes(challenge ?? options.challenge)),
        origin,
        crossOrigin: false,
      }),
    );
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientDataJSON)]),
      chosen.privateKey,
    );
    const json = {
      id: b64url(chosen.id),
      rawId: b64url(chosen.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: b64url(chosen.userHandle),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
    return { ...json, toJSON: () => json };
  }
}
