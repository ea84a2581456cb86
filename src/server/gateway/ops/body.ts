/** Thrown by `readBodyLimited` when a body passes its limit. */
export class BodyTooLarge extends Error {
  constructor(public readonly limit: number) {
    super(`The request body is larger than ${limit} bytes`);
    this.name = 'BodyTooLarge';
  }
}

/**
 * Reads a request body, stopping as soon as it passes `limit` bytes, whether or not the
 * client declared a Content-Length (a chunked body declares none).
 */
export async function readBodyLimited(
  request: Request,
  limit: number,
): Promise<ArrayBuffer | undefined> {
  if (!request.body) return undefined;
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > limit) throw new BodyTooLarge(limit);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new BodyTooLarge(limit);
    }
    chunks.push(value);
  }
  const joined = Buffer.concat(chunks);
  return joined.buffer.slice(
    joined.byteOffset,
    joined.byteOffset + joined.byteLength,
  ) as ArrayBuffer;
}
