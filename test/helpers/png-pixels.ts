import { inflateSync } from 'node:zlib';

/** Decoded pixels of a PNG: 8-bit RGB or RGBA, non-interlaced (what Blender writes). */
export interface Pixels {
  width: number;
  height: number;
  /** Samples per pixel: 3 (RGB) or 4 (RGBA). */
  channels: number;
  data: Buffer;
}

/** Decode a PNG (8-bit RGB/RGBA, no interlacing) into raw pixels: inflate, then undo the row filters. */
export function decodePng(png: Buffer): Pixels {
  if (png.subarray(1, 4).toString('latin1') !== 'PNG') throw new Error('not a PNG');
  let at = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const depth = body[8];
      const colour = body[9];
      if (depth !== 8 || (colour !== 2 && colour !== 6) || body[12] !== 0) throw new Error(`unsupported PNG (depth ${depth}, colour type ${colour})`);
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(body);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const data = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? data[y * stride + x - channels]! : 0;
      const up = y > 0 ? data[(y - 1) * stride + x]! : 0;
      const corner = x >= channels && y > 0 ? data[(y - 1) * stride + x - channels]! : 0;
      data[y * stride + x] = (line[x]! + predictor(filter, left, up, corner)) & 0xff;
    }
  }
  return { width, height, channels, data };
}

function predictor(filter: number, left: number, up: number, corner: number): number {
  switch (filter) {
    case 0:
      return 0;
    case 1:
      return left;
    case 2:
      return up;
    case 3:
      return (left + up) >> 1;
    case 4: {
      const p = left + up - corner;
      const pa = Math.abs(p - left);
      const pb = Math.abs(p - up);
      const pc = Math.abs(p - corner);
      return pa <= pb && pa <= pc ? left : pb <= pc ? up : corner;
    }
    default:
      throw new Error(`unknown PNG filter ${filter}`);
  }
}

/** Whether some pixel's RGB is within `tolerance` of `rgb`. */
export function hasColour(pixels: Pixels, rgb: readonly number[], tolerance = 2): boolean {
  for (let i = 0; i < pixels.data.length; i += pixels.channels) {
    if (Math.abs(pixels.data[i]! - rgb[0]!) <= tolerance && Math.abs(pixels.data[i + 1]! - rgb[1]!) <= tolerance && Math.abs(pixels.data[i + 2]! - rgb[2]!) <= tolerance) return true;
  }
  return false;
}
