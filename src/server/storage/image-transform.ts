/**
 * Image transformations (`/render/image/...`), as Supabase Storage offers them through
 * imgproxy, done here with sharp (libvips) in-process. Options and their limits follow
 * upstream's: width and height are clamped to the largest size allowed, quality is 20–100
 * (80 when absent), resize is cover, contain or fill, and without a format the image is sent
 * as WebP to clients that accept it (upstream's self-hosted imgproxy detects WebP only; AVIF is
 * sent when asked for by name). Source files too large, of too many pixels, or not a raster
 * image are refused with upstream's messages. Rendered variants are cached on disk beside the
 * objects, keyed by the blob's id: an overwrite writes a new blob, so a changed object never
 * serves an old variant, and removing a blob removes its variants (see `withRenderCleanup`).
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp, { type Metadata } from 'sharp';
import { checkFileId, readAll, type BlobStore } from './blob-store';
import { storageErrors } from './errors';
import type { ObjectRow } from './objects';

export const RESIZE_MODES = ['cover', 'contain', 'fill'] as const;
export const TRANSFORM_FORMATS = ['origin', 'webp', 'avif'] as const;

export interface Transform {
  width?: number;
  height?: number;
  resize: (typeof RESIZE_MODES)[number];
  quality?: number;
  format?: (typeof TRANSFORM_FORMATS)[number];
}

export interface ImageTransformSettings {
  enabled: boolean;
  /** Width and height are clamped to this many pixels, as upstream's IMG_LIMITS_MAX_SIZE. */
  maxDimension: number;
  /** Larger source files are refused. */
  maxSourceBytes: number;
  /** Sources with more pixels than this are refused (width × height). */
  maxSourcePixels: number;
  /** Where rendered variants are kept. */
  cacheDir: string;
}

/** Hosted Supabase's documented limits: 2,500 px a side, 25 MB and 50 MP sources. */
export const DEFAULT_IMAGE_LIMITS = {
  maxDimension: 2500,
  maxSourceBytes: 25_000_000,
  maxSourcePixels: 50_000_000,
};

const DEFAULT_QUALITY = 80;

/**
 * Reads transformation options from a query string or a signing body, with the messages
 * Storage's request validation gives (`querystring/width must be integer`). Absent, empty and
 * zero sizes mean "not set", as upstream treats them.
 */
export function checkTransform(raw: Record<string, unknown>, location: string): Transform {
  const whole = (name: string, min: number, max = Number.MAX_SAFE_INTEGER) => {
    const value = raw[name];
    if (value === undefined || value === null || value === '') return undefined;
    const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n))
      throw storageErrors.invalidRequest(`${location}/${name} must be integer`);
    if (n < min) throw storageErrors.invalidRequest(`${location}/${name} must be >= ${min}`);
    if (n > max) throw storageErrors.invalidRequest(`${location}/${name} must be <= ${max}`);
    return n;
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[]): T | undefined => {
    const value = raw[name];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value))
      throw storageErrors.invalidRequest(
        `${location}/${name} must be equal to one of the allowed values (${allowed.join(', ')})`,
      );
    return value as T;
  };
  const width = whole('width', 0);
  const height = whole('height', 0);
  const quality = whole('quality', 20, 100);
  return {
    ...(width ? { width } : {}),
    ...(height ? { height } : {}),
    resize: oneOf('resize', RESIZE_MODES) ?? 'cover',
    ...(quality ? { quality } : {}),
    ...(raw.format !== undefined && raw.format !== '' && raw.format !== null
      ? { format: oneOf('format', TRANSFORM_FORMATS) }
      : {}),
  };
}

/** The `X-Transformations` header and a signed URL's claim: `width:100,resize:cover,…`. */
export function transformToString(transform: Transform): string {
  const parts: string[] = [];
  if (transform.height) parts.push(`height:${transform.height}`);
  if (transform.width) parts.push(`width:${transform.width}`);
  if (transform.width || transform.height) parts.push(`resize:${transform.resize}`);
  if (transform.quality) parts.push(`quality:${transform.quality}`);
  if (transform.format) parts.push(`format:${transform.format}`);
  return parts.join(',');
}

/** The inverse of `transformToString`, for a signed URL's claim (which we signed). */
export function transformFromString(text: string): Transform {
  const raw: Record<string, string> = {};
  for (const part of text.split(',')) {
    const [name, value] = part.split(':');
    if (name && value) raw[name] = value;
  }
  return checkTransform(raw, 'token');
}

export interface RenderedImage {
  bytes: Buffer;
  contentType: string;
  /** Distinct per variant of one object version, so caches never mix them up. */
  eTag: string;
  /** What was applied, for `X-Transformations`. */
  transformations: string;
  /** The format followed the client's Accept header: responses must say `Vary: Accept`. */
  variesByAccept: boolean;
}

export interface ImageRenderer {
  readonly settings: ImageTransformSettings;
  /** The object's image with the transformation applied; from the cache when rendered before. */
  render(row: ObjectRow, transform: Transform, accept: string | undefined): Promise<RenderedImage>;
  /** Removes the cached variants of these blobs (they were deleted or replaced). */
  forget(fileIds: readonly string[]): Promise<void>;
}

type OutputFormat = 'jpeg' | 'png' | 'webp' | 'avif' | 'gif' | 'tiff';

/** The raster formats sharp reads here, and what "origin" writes for each. */
const ORIGIN_OUTPUT: Record<string, OutputFormat> = {
  jpeg: 'jpeg',
  png: 'png',
  webp: 'webp',
  gif: 'gif',
  tiff: 'tiff',
  heif: 'avif',
};

const CONTENT_TYPES: Record<OutputFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
  tiff: 'image/tiff',
};

const FIT = { cover: 'cover', contain: 'inside', fill: 'fill' } as const;

/** Variants kept per object version; past this the oldest goes, so odd sizes cannot fill the disk. */
const MAX_VARIANTS_PER_OBJECT = 32;

const sourceErrors = {
  unsupported: () =>
    storageErrors.invalidRequest('The source image is invalid or unsupported for rendering'),
  tooManyPixels: () =>
    storageErrors.invalidRequest('The source image resolution is too large to process'),
  tooLarge: () => storageErrors.invalidRequest('The source image file is too large to process'),
};

/** libvips refuses a source past `limitInputPixels` before decoding it; anything else is a bad file. */
function sharpError(error: unknown) {
  return /pixel limit/i.test((error as Error).message)
    ? sourceErrors.tooManyPixels()
    : sourceErrors.unsupported();
}

/** Which output the request asks for before the source is read: a format, or the source's. */
function requestedFormat(
  transform: Transform,
  accept: string | undefined,
): { format: OutputFormat | 'origin'; variesByAccept: boolean } {
  if (transform.format === 'webp' || transform.format === 'avif')
    return { format: transform.format, variesByAccept: false };
  if (transform.format === 'origin') return { format: 'origin', variesByAccept: false };
  return { format: /image\/webp/i.test(accept ?? '') ? 'webp' : 'origin', variesByAccept: true };
}

export function createImageRenderer(
  settings: ImageTransformSettings,
  blobs: Pick<BlobStore, 'read'>,
): ImageRenderer {
  /** Renders under way, so a burst of requests for one new variant renders it once. */
  const inFlight = new Map<string, Promise<RenderedImage>>();

  const variantDir = (fileId: string) =>
    path.join(settings.cacheDir, fileId.slice(0, 2), checkFileId(fileId));

  async function cached(dir: string, variant: string) {
    let entries: string[];
    try {
      entries = await fs.readdir(dir);
    } catch {
      return { entries: [] as string[], hit: undefined };
    }
    const name = entries.find((entry) => entry.startsWith(`${variant}.`));
    if (!name) return { entries, hit: undefined };
    try {
      const bytes = await fs.readFile(path.join(dir, name));
      return { entries, hit: { bytes, format: name.slice(variant.length + 1) as OutputFormat } };
    } catch {
      // Removed meanwhile (the object was replaced): render again.
      return { entries, hit: undefined };
    }
  }

  async function store(dir: string, entries: string[], file: string, bytes: Buffer) {
    await fs.mkdir(dir, { recursive: true });
    const variants = entries.filter((entry) => !entry.startsWith('.'));
    if (variants.length >= MAX_VARIANTS_PER_OBJECT) {
      const ages = await Promise.all(
        variants.map(async (entry) => {
          const stat = await fs.stat(path.join(dir, entry)).catch(() => undefined);
          return { entry, at: stat?.atimeMs ?? 0 };
        }),
      );
      ages.sort((a, b) => a.at - b.at);
      const excess = ages.slice(0, variants.length - MAX_VARIANTS_PER_OBJECT + 1);
      await Promise.all(excess.map(({ entry }) => fs.rm(path.join(dir, entry), { force: true })));
    }
    // Written aside and renamed, so a reader never sees half a file.
    const temp = path.join(dir, `.${randomUUID()}.tmp`);
    await fs.writeFile(temp, bytes);
    await fs.rename(temp, path.join(dir, file));
  }

  async function transformBytes(
    source: Buffer,
    transform: Transform,
    wanted: OutputFormat | 'origin',
  ): Promise<{ bytes: Buffer; format: OutputFormat }> {
    const image = sharp(source, { limitInputPixels: settings.maxSourcePixels, failOn: 'error' });
    let meta: Metadata;
    try {
      meta = await image.metadata();
    } catch (error) {
      throw sharpError(error);
    }
    const origin = ORIGIN_OUTPUT[meta.format ?? ''];
    if (!origin || (meta.format === 'heif' && meta.compression !== 'av1'))
      throw sourceErrors.unsupported();
    if ((meta.width ?? 0) * (meta.height ?? 0) > settings.maxSourcePixels)
      throw sourceErrors.tooManyPixels();
    const format = wanted === 'origin' ? origin : wanted;
    const clamp = (n: number | undefined) =>
      n === undefined ? undefined : Math.min(Math.max(n, 1), settings.maxDimension);
    // EXIF orientation first, as imgproxy does; metadata is stripped (sharp's default).
    let pipeline = image.rotate();
    if (transform.width || transform.height)
      pipeline = pipeline.resize({
        width: clamp(transform.width),
        height: clamp(transform.height),
        fit: FIT[transform.resize],
        // imgproxy does not enlarge unless told to; neither does Storage.
        withoutEnlargement: true,
      });
    const quality = transform.quality ?? DEFAULT_QUALITY;
    pipeline =
      format === 'png' || format === 'gif'
        ? pipeline.toFormat(format)
        : pipeline.toFormat(format, { quality });
    try {
      return { bytes: await pipeline.toBuffer(), format };
    } catch (error) {
      throw sharpError(error);
    }
  }

  async function renderFresh(
    row: ObjectRow,
    transform: Transform,
    wanted: { format: OutputFormat | 'origin'; variesByAccept: boolean },
    variant: string,
  ): Promise<RenderedImage> {
    const dir = variantDir(row.file_id);
    const applied = transformToString({
      ...transform,
      ...(wanted.format === 'origin' ? {} : { format: wanted.format as 'webp' | 'avif' }),
    });
    const respond = (bytes: Buffer, format: OutputFormat): RenderedImage => ({
      bytes,
      contentType: CONTENT_TYPES[format],
      eTag: `"${row.metadata.eTag.replace(/^W\/|"/g, '')}-${variant.slice(0, 12)}"`,
      transformations: applied,
      variesByAccept: wanted.variesByAccept,
    });
    const { entries, hit } = await cached(dir, variant);
    if (hit) return respond(hit.bytes, hit.format);
    if (row.metadata.size > settings.maxSourceBytes) throw sourceErrors.tooLarge();
    const source = await readAll(await blobs.read(row.file_id));
    const { bytes, format } = await transformBytes(source, transform, wanted.format);
    await store(dir, entries, `${variant}.${format}`, bytes);
    return respond(bytes, format);
  }

  return {
    settings,

    render(row, transform, accept) {
      const wanted = requestedFormat(transform, accept);
      const variant = createHash('sha256')
        .update(JSON.stringify([transform.width, transform.height, transform.resize]))
        .update(JSON.stringify([transform.quality ?? DEFAULT_QUALITY, wanted.format]))
        .update(JSON.stringify([settings.maxDimension]))
        .digest('hex')
        .slice(0, 32);
      const key = `${row.file_id}/${variant}`;
      let pending = inFlight.get(key);
      if (!pending) {
        pending = renderFresh(row, transform, wanted, variant).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      return pending;
    },

    async forget(fileIds) {
      await Promise.all(
        fileIds.map((fileId) => fs.rm(variantDir(fileId), { recursive: true, force: true })),
      );
    },
  };
}

/**
 * A blob store whose removals also drop the removed blobs' rendered variants: every delete,
 * overwrite, move-replace and bucket empty goes through `remove`, so none can leave variants
 * of bytes that are gone.
 */
export function withRenderCleanup(blobs: BlobStore, renderer: ImageRenderer): BlobStore {
  return {
    kind: blobs.kind,
    write: (source, maxBytes) => blobs.write(source, maxBytes),
    writeStream: (source, maxBytes) => blobs.writeStream(source, maxBytes),
    copy: (fileId) => blobs.copy(fileId),
    read: (fileId, span) => blobs.read(fileId, span),
    async remove(fileIds) {
      await blobs.remove(fileIds);
      await renderer.forget(fileIds);
    },
    sweepTemp: (maxAgeMs) => blobs.sweepTemp(maxAgeMs),
    check: () => blobs.check(),
  };
}
