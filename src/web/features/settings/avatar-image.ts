/**
 * Turns a chosen picture into the square avatar the bucket stores: decoded by the browser
 * (so a file that is not an image fails here, with a clear message), cropped to its centre
 * square and scaled to 512 px, encoded as WebP (JPEG where the browser cannot write WebP).
 */

export const AVATAR_PIXELS = 512;
/** Larger files are refused before decoding: a phone photo is well under this. */
export const MAX_SOURCE_BYTES = 20 * 1024 * 1024;

export class AvatarImageError extends Error {}

/** The centre square of a width × height picture: [x, y, side]. */
export function centreSquare(width: number, height: number): [number, number, number] {
  const side = Math.min(width, height);
  return [Math.floor((width - side) / 2), Math.floor((height - side) / 2), side];
}

function encode(canvas: HTMLCanvasElement, type: string): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, type, 0.9));
}

export async function squareAvatar(file: File): Promise<Blob> {
  if (file.size > MAX_SOURCE_BYTES) {
    throw new AvatarImageError(
      `This file is ${(file.size / 1024 / 1024).toFixed(1)} MB; choose a picture under 20 MB.`,
    );
  }
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw new AvatarImageError(
      `“${file.name}” is not a picture this browser can read. Choose a PNG, JPEG or WebP image.`,
    );
  }
  const [x, y, side] = centreSquare(bitmap.width, bitmap.height);
  const size = Math.min(AVATAR_PIXELS, side);
  const canvas = document.createElement('canvas');
  canvas.width = size;
  canvas.height = size;
  const context = canvas.getContext('2d');
  if (!context) throw new AvatarImageError('This browser cannot resize pictures.');
  context.imageSmoothingQuality = 'high';
  context.drawImage(bitmap, x, y, side, side, 0, 0, size, size);
  bitmap.close();
  const webp = await encode(canvas, 'image/webp');
  const blob = webp?.type === 'image/webp' ? webp : await encode(canvas, 'image/jpeg');
  if (!blob) throw new AvatarImageError('The picture could not be prepared for upload.');
  return blob;
}
