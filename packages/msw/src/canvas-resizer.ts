import type { Capabilities } from '@basekit/engine';

type ImageResizer = NonNullable<Capabilities['images']>;

/** The formats a canvas writes; any other image is resized to PNG. */
const SIGNATURES: [string, number[]][] = [
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/png', [0x89, 0x50, 0x4e, 0x47]],
  ['image/webp', [0x52, 0x49, 0x46, 0x46]],
];

const formatOf = (bytes: Uint8Array) =>
  SIGNATURES.find(([, magic]) => magic.every((byte, i) => bytes[i] === byte))?.[0];

/**
 * Image resizing in the browser for downloads `.../r/<w>x<h>`: decoded with `createImageBitmap` (EXIF orientation
 * applied), drawn on an `OffscreenCanvas` scaled to fit inside the box with its aspect ratio kept and never enlarged
 * (as sharp's `fit: inside` with `withoutEnlargement` on the reference server), written back in its format when a
 * canvas can write it, PNG otherwise.
 * Undefined where those APIs are missing (Node): the engine then serves the original image.
 *
 * @example
 * const images = canvasImageResizer();
 * const out = await images?.resize(pngBytes, 64, 64); // { bytes, contentType: 'image/png' }
 */
export function canvasImageResizer(): ImageResizer | undefined {
  if (typeof OffscreenCanvas === 'undefined' || typeof createImageBitmap === 'undefined') return undefined;
  return {
    async resize(bytes, width, height) {
      const format = formatOf(bytes);
      let bitmap: ImageBitmap;
      try {
        bitmap = await createImageBitmap(new Blob([bytes as BlobPart], format ? { type: format } : {}));
      } catch {
        return undefined; // not an image the browser can decode
      }
      const scale = Math.min(1, width / bitmap.width, height / bitmap.height);
      const canvas = new OffscreenCanvas(
        Math.max(1, Math.round(bitmap.width * scale)),
        Math.max(1, Math.round(bitmap.height * scale)),
      );
      canvas.getContext('2d')!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      bitmap.close();
      const blob = await canvas.convertToBlob({ type: format ?? 'image/png' });
      return { bytes: new Uint8Array(await blob.arrayBuffer()), contentType: blob.type };
    },
  };
}
