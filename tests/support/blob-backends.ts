/**
 * The storage tests run on both blob backends: local disk, and an S3-compatible server on
 * loopback (s3rver, in-process, files in a temp directory; it checks request signatures
 * against its fixed "S3RVER" key pair, so the SDK's signing is exercised too).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { DatabaseKind, TestServer } from './test-server';

export type BlobBackend = 'local' | 's3';

/** Every database with every blob backend, for `describe.each`. */
export const storageSetups: [DatabaseKind, BlobBackend][] = [
  ['pglite', 'local'],
  ['postgres', 'local'],
  ['pglite', 's3'],
  ['postgres', 's3'],
];

export interface TestBlobBackend {
  /** Settings for `startTestServer`. */
  env: Record<string, string>;
  /** How many blobs the backend holds, to see that replaced and deleted bytes are gone. */
  count(server: TestServer): Promise<number>;
  /**
   * Whether the backend holds one blob: what a test checks about its own objects, whatever
   * else the server writes or removes meanwhile.
   */
  has(server: TestServer, fileId: string): Promise<boolean>;
  stop(): Promise<void>;
}

const BUCKET = 'lyceum-test';
const PREFIX = 'objects/';

export async function startBlobBackend(backend: BlobBackend): Promise<TestBlobBackend> {
  if (backend === 'local') {
    return {
      env: { STORAGE_BACKEND: 'local' },
      async count(server) {
        const root = path.join(server.deps.config.storageDir, 'objects');
        if (!fs.existsSync(root)) return 0;
        return fs
          .readdirSync(root)
          .reduce((n, dir) => n + fs.readdirSync(path.join(root, dir)).length, 0);
      },
      has: async (server, fileId) =>
        fs.existsSync(
          path.join(server.deps.config.storageDir, 'objects', fileId.slice(0, 2), fileId),
        ),
      async stop() {},
    };
  }
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-s3-'));
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const { port } = await s3.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  return {
    env: {
      STORAGE_BACKEND: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: BUCKET,
      S3_PREFIX: PREFIX,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    async count() {
      let total = 0;
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: BUCKET, Prefix: PREFIX, ContinuationToken: token }),
        );
        total += page.KeyCount ?? 0;
        token = page.NextContinuationToken;
      } while (token);
      return total;
    },
    async has(_server, fileId) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: `${PREFIX}${fileId}` }));
        return true;
      } catch (error) {
        if ((error as { name?: string }).name === 'NotFound') return false;
        throw error;
      }
    },
    async stop() {
      client.destroy();
      await s3.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
