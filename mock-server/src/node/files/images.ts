import sharp from 'sharp';
import type { ImageResizer } from '../../engine/shared/capabilities.js';

/**
 * Image resizing with sharp: the image is turned upright (EXIF orientation) and scaled to fit inside the box,
 * keeping its aspect ratio and, where sharp can write it, its format (others, such as SVG, become PNG).
 */
export const sharpResizer: ImageResizer = {
  async resize(bytes, width, height) {
    try {
      const { data, info } = await sharp(bytes).rotate().resize(width, height, { fit: 'inside' }).toBuffer({ resolveWithObject: true });
      return { bytes: new Uint8Array(data.buffer, data.byteOffset, data.length), contentType: `image/${info.format}` };
    } catch {
      return undefined; // not an image sharp can read
    }
  },
};
