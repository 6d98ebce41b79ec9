import { renderedSize } from './render-limits';

/** The parts of a render plan that decide how large its frames are. */
export interface OutputShape {
  resolution: [number, number];
  resolutionPercentage: number;
  outputFormat: string;
  outputSettings: Record<string, unknown>;
}

const CHANNELS: Record<string, number> = { BW: 1, RGB: 3, RGBA: 4 };

/**
 * The size of one frame in bytes, for formats that store pixels uncompressed (OpenEXR and TIFF
 * without a codec, BMP, raw Targa, DPX, Cineon); null for compressed formats, whose size depends on
 * the picture.
 */
export function estimateFrameBytes(shape: OutputShape): number | null {
  const [width, height] = renderedSize(shape.resolution, shape.resolutionPercentage);
  const pixels = width * height;
  const settings = shape.outputSettings;
  const channels = CHANNELS[String(settings.colorMode ?? 'RGBA')] ?? 4;
  const depth = String(settings.colorDepth ?? '8');
  switch (shape.outputFormat) {
    case 'OPEN_EXR':
    case 'OPEN_EXR_MULTILAYER': {
      const codec = settings.exrCodec;
      if (codec !== 'NONE') return null;
      const layers = shape.outputFormat === 'OPEN_EXR_MULTILAYER' ? Math.max(channels, 4) : channels;
      return pixels * layers * (depth === '16' ? 2 : 4);
    }
    case 'TIFF':
      return settings.tiffCodec === 'NONE' ? pixels * channels * (depth === '16' ? 2 : 1) : null;
    case 'BMP':
    case 'TARGA_RAW':
      return pixels * Math.max(channels, 3);
    case 'DPX':
    case 'CINEON':
      return pixels * 4;
    default:
      return null;
  }
}

/**
 * Disk space a render still needs: the frames left to render plus the frames zip made when it
 * finishes (a stored copy of every frame). Null when the format's size cannot be told in advance.
 */
export function estimateRenderBytes(shape: OutputShape, framesLeft: number, framesTotal: number): number | null {
  const perFrame = estimateFrameBytes(shape);
  return perFrame === null ? null : perFrame * (framesLeft + framesTotal);
}
