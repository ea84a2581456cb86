import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  ListObjectsV2Command,
  S3Client,
  UploadPartCommand,
  type ServiceInputTypes,
  type ServiceOutputTypes,
} from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAll } from './blob-store';
import { StorageError } from './errors';
import { createS3BlobStore, MULTIPART_PART_BYTES } from './s3-blob-store';

describe('S3 blob store: streamed writes', () => {
  const bucket = 'streamed';
  let server: S3rver;
  let directory: string;
  let client: S3Client;
  const sent: string[] = [];

  beforeAll(async () => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-s3-stream-'));
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory,
      configureBuckets: [{ name: bucket, configs: [] }],
    });
    const { port } = await server.run();
    client = new S3Client({
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    const send = client.send.bind(client) as (command: {
      constructor: { name: string };
    }) => Promise<ServiceOutputTypes>;
    // Which commands the store sends: a streamed write is a multipart upload, part by part.
    client.send = ((command: { constructor: { name: string }; input: ServiceInputTypes }) => {
      sent.push(command.constructor.name);
      return send(command);
    }) as typeof client.send;
  });
  afterAll(async () => {
    client.destroy();
    await server.close();
    fs.rmSync(directory, { recursive: true, force: true });
  });

  const store = () =>
    createS3BlobStore(
      { bucket, prefix: 'blobs/', region: 'us-east-1', forcePathStyle: true },
      directory,
      client,
    );

  it('sends a stream as parts as it arrives and reads it back whole', async () => {
    sent.length = 0;
    const bytes = randomBytes(MULTIPART_PART_BYTES * 2 + 1000);
    const chunks = Array.from({ length: Math.ceil(bytes.length / 65536) }, (_, i) =>
      bytes.subarray(i * 65536, (i + 1) * 65536),
    );
    const blob = await store().writeStream(Readable.from(chunks), bytes.length);
    expect(blob.size).toBe(bytes.length);
    expect(blob.eTag).toBe(`"${createHash('md5').update(bytes).digest('hex')}"`);
    expect(sent.filter((name) => name === UploadPartCommand.name)).toHaveLength(3);
    expect(sent).not.toContain('PutObjectCommand');
    expect((await readAll(await store().read(blob.fileId))).equals(bytes)).toBe(true);
    // Nothing was staged on local disk.
    expect(fs.existsSync(path.join(directory, 'tmp'))).toBe(false);
  });

  it('refuses a stream past the limit and completes no object', async () => {
    const before = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
    const source = Readable.from([randomBytes(MULTIPART_PART_BYTES), randomBytes(1024)]);
    const error = await store()
      .writeStream(source, MULTIPART_PART_BYTES + 10)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).code).toBe('EntityTooLarge');
    const after = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
    expect(after.KeyCount).toBe(before.KeyCount);
  });
});
