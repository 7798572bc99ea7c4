import type { ImageResizer } from '@basekit/engine';

// Loaded on the first resize: sharp's native library costs start-up time that most runs never need.
let sharpModule: Promise<typeof import('sharp')> | undefined;
const loadSharp = async () => (await (sharpModule ??= import('sharp'))).default;

/**
 * Image resizing with sharp: the image is turned upright (EXIF orientation) and scaled to fit inside the box,
 * keeping its aspect ratio and, where sharp can write it, its format (others, such as SVG, become PNG). It is never
 * enlarged: a box larger than the image gives the image at its own size, so nobody makes a small image cost
 * megabytes and seconds.
 */
export const sharpResizer: ImageResizer = {
  async resize(bytes, width, height) {
    const sharp = await loadSharp();
    try {
      const { data, info } = await sharp(bytes)
        .rotate()
        .resize(width, height, { fit: 'inside', withoutEnlargement: true })
        .toBuffer({ resolveWithObject: true });
      return { bytes: new Uint8Array(data.buffer, data.byteOffset, data.length), contentType: `image/${info.format}` };
    } catch {
      return undefined; // not an image sharp can read
    }
  },
};
