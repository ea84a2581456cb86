/**
 * Sends an object's bytes with the headers browsers and caches rely on: type, length, ETag
 * (304 on If-None-Match), Cache-Control from the upload, single byte ranges (206/416) and
 * Content-Disposition for `?download`.
 */
import { Readable } from 'node:stream';
import type { BlobStore } from '../../storage/blob-store';
import { storageErrors } from '../../storage/errors';
import type { RenderedImage } from '../../storage/image-transform';
import type { ObjectRow } from '../../storage/objects';
import { storageErrorBody } from './errors';

/** Types a browser would run script in: served sandboxed so they cannot act as our origin. */
const ACTIVE_TYPES =
  /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml)/i;

export interface ServeOptions {
  /** `?download` absent: undefined; present without a value: ""; with a value: that name. */
  download?: string;
  range?: string;
  ifNoneMatch?: string;
}

type ByteRange = { start: number; end: number } | 'unsatisfiable' | undefined;

/** One `bytes=` range; several ranges or a malformed header are ignored (full body). */
export function parseRange(header: string | undefined, size: number): ByteRange {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

function etagMatches(header: string | undefined, eTag: string): boolean {
  if (!header) return false;
  const bare = eTag.replace(/^W\//, '');
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === bare);
}

function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export async function serveObject(
  row: ObjectRow,
  blobs: BlobStore,
  options: ServeOptions,
): Promise<Response> {
  const meta = row.metadata;
  const headers = new Headers({
    'Content-Type': meta.mimetype || 'application/octet-stream',
    'Cache-Control': meta.cacheControl || 'no-cache',
    ETag: meta.eTag,
    'Last-Modified': new Date(row.updated_at).toUTCString(),
    'Accept-Ranges': 'bytes',
    'X-Content-Type-Options': 'nosniff',
  });
  if (ACTIVE_TYPES.test(meta.mimetype))
    headers.set(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    );
  if (options.download !== undefined)
    headers.set(
      'Content-Disposition',
      contentDisposition(options.download || row.name.split('/').pop() || 'download'),
    );

  if (etagMatches(options.ifNoneMatch, meta.eTag))
    return new Response(null, { status: 304, headers });

  const size = meta.size;
  const range = parseRange(options.range, size);
  if (range === 'unsatisfiable') {
    const error = storageErrors.invalidRange();
    headers.set('Content-Range', `bytes */${size}`);
    headers.set('Content-Type', 'application/json');
    return new Response(JSON.stringify(storageErrorBody(error)), { status: 416, headers });
  }

  const start = range?.start ?? 0;
  const end = range?.end ?? size - 1;
  const length = size === 0 ? 0 : end - start + 1;
  headers.set('Content-Length', String(length));
  if (range) headers.set('Content-Range', `bytes ${start}-${end}/${size}`);
  if (length === 0) return new Response(null, { status: 200, headers });
  // A row read just before a delete or overwrite removed its blob answers NoSuchKey here.
  const bytes = await blobs.read(row.file_id, { start, end });
  const body = Buffer.isBuffer(bytes)
    ? new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength)
    : (Readable.toWeb(bytes) as ReadableStream<Uint8Array>);
  return new Response(body, { status: range ? 206 : 200, headers });
}

/**
 * Sends a transformed image with the object's caching headers, its own ETag (one per variant),
 * upstream's `X-Transformations`, and `Vary: Accept` when the format followed the client's.
 */
export function serveRendered(
  row: ObjectRow,
  image: RenderedImage,
  options: Omit<ServeOptions, 'range'>,
): Response {
  const headers = new Headers({
    'Content-Type': image.contentType,
    'Cache-Control': row.metadata.cacheControl || 'no-cache',
    ETag: image.eTag,
    'Last-Modified': new Date(row.updated_at).toUTCString(),
    'X-Content-Type-Options': 'nosniff',
  });
  if (image.transformations) headers.set('X-Transformations', image.transformations);
  if (image.variesByAccept) headers.set('Vary', 'Accept');
  if (options.download !== undefined)
    headers.set(
      'Content-Disposition',
      contentDisposition(options.download || row.name.split('/').pop() || 'download'),
    );
  if (etagMatches(options.ifNoneMatch, image.eTag))
    return new Response(null, { status: 304, headers });
  headers.set('Content-Length', String(image.bytes.byteLength));
  const body = new Uint8Array(
    image.bytes.buffer as ArrayBuffer,
    image.bytes.byteOffset,
    image.bytes.byteLength,
  );
  return new Response(body, { status: 200, headers });
}
