import { isPlainRecord } from '../plain-record';

/** What an artist calls each field of a render configuration. */
const LABELS: Record<string, string> = {
  colorManagementPreset: 'Colour management',
  frameRanges: 'Frames',
  notes: 'Notes',
  renderEngine: 'Render engine',
  compositorDevice: 'Compositing on',
  computeDeviceType: 'Rendering on',
  gpuCount: 'GPUs',
  sampleCount: 'Samples',
  denoisingEnabled: 'Denoising',
  denoiserType: 'Denoiser',
  resolution: 'Resolution',
  resolutionPercentage: 'Resolution scale',
  outputFormat: 'Output format',
  outputMediaType: 'Output type',
  fps: 'Frame rate',
  videoOutput: 'Video',
  useTiling: 'Tiling',
  tileSize: 'Tile size',
  outputSettings: 'Output',
  minimumRam: 'Minimum memory',
  activeCamera: 'Camera',
  activeViewLayer: 'View layer',
  colorMode: 'Colour channels',
  colorDepth: 'Colour depth',
  exrCodec: 'EXR compression',
  tiffCodec: 'TIFF compression',
  compression: 'Compression',
  quality: 'Quality',
  apiKey: 'API key',
  baseUrl: 'Server address',
  downloadDir: 'Download folder',
  jobId: 'Job',
  autoDownload: 'Automatic download',
};

const FORMATS: Record<string, string> = {
  PNG: 'PNG',
  JPEG: 'JPEG',
  JPEG2000: 'JPEG 2000',
  OPEN_EXR: 'OpenEXR',
  OPEN_EXR_MULTILAYER: 'OpenEXR multilayer',
  TIFF: 'TIFF',
  BMP: 'BMP',
  TARGA: 'Targa',
  TARGA_RAW: 'Targa (raw)',
  WEBP: 'WebP',
  HDR: 'Radiance HDR',
  DPX: 'DPX',
  CINEON: 'Cineon',
  IRIS: 'Iris',
  FFMPEG: 'Video (FFmpeg)',
};

const ENGINES: Record<string, string> = {
  CYCLES: 'Cycles',
  BLENDER_EEVEE: 'EEVEE',
  BLENDER_EEVEE_NEXT: 'EEVEE',
  BLENDER_WORKBENCH: 'Workbench',
};

const WORDS: Record<string, Record<string, string>> = {
  colorManagementPreset: { default: 'The scene’s own', aces: 'ACES' },
  renderEngine: ENGINES,
  outputFormat: FORMATS,
  outputMediaType: { IMAGE: 'Images', VIDEO: 'Video' },
  denoiserType: { OPTIX: 'OptiX', OPENIMAGEDENOISE: 'OpenImageDenoise' },
  computeDeviceType: { NONE: 'CPU', CPU: 'CPU', CUDA: 'CUDA GPU', OPTIX: 'OptiX GPU', HIP: 'HIP GPU', ONEAPI: 'oneAPI GPU', METAL: 'Metal GPU' },
  colorMode: { BW: 'Black and white', RGB: 'RGB', RGBA: 'RGBA (with alpha)' },
};

const EXR = new Set(['OPEN_EXR', 'OPEN_EXR_MULTILAYER']);

/** A field name an artist can read: the known label, else the words of a camelCase name ("tileSize" -> "Tile size"). */
export function settingLabel(field: string): string {
  const known = LABELS[field];
  if (known) return known;
  const words = field
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words === '' ? field : words[0]!.toUpperCase() + words.slice(1);
}

/** An output format's name ("OPEN_EXR" -> "OpenEXR"). */
export function formatName(format: string): string {
  return FORMATS[format] ?? format;
}

/** A colour depth for a format: "8-bit", "16-bit", and for EXR "16-bit half float" or "32-bit float". */
export function depthName(format: string | null, depth: string | number): string {
  const bits = String(depth);
  if (format && EXR.has(format)) return bits === '16' ? '16-bit half float' : bits === '32' ? '32-bit float' : `${bits}-bit`;
  return `${bits}-bit`;
}

/** The output an artist gets, in one line: "OpenEXR, 32-bit float, RGBA (with alpha)". */
export function describeOutput(format: string | null, settings: unknown): string {
  const parts: string[] = [];
  if (format) parts.push(formatName(format));
  if (isPlainRecord(settings)) {
    if (typeof settings.colorDepth === 'string' || typeof settings.colorDepth === 'number') parts.push(depthName(format, settings.colorDepth));
    if (typeof settings.colorMode === 'string') parts.push(WORDS.colorMode![settings.colorMode] ?? settings.colorMode);
    if (typeof settings.exrCodec === 'string' && (!format || EXR.has(format)) && settings.exrCodec !== 'NONE') parts.push(`${settings.exrCodec} compression`);
    if (typeof settings.quality === 'number' && format === 'JPEG') parts.push(`quality ${settings.quality} %`);
  }
  return parts.join(', ') || '–';
}

/** One value of a render configuration, in words ("1920 × 1080 px", "on", "Cycles"); never JSON. */
export function settingValue(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '–';
  const words = WORDS[field];
  if (words && typeof value === 'string') return words[value] ?? value;
  switch (field) {
    case 'resolution':
      return Array.isArray(value) ? `${value.map(String).join(' × ')} px` : String(value);
    case 'resolutionPercentage':
      return `${String(value)} %`;
    case 'fps':
      return `${String(value)} fps`;
    case 'minimumRam':
      return `${String(value)} GB`;
    case 'colorDepth':
      return depthName(null, String(value));
    case 'outputSettings':
      return describeOutput(null, value);
  }
  if (typeof value === 'boolean') return value ? 'On' : 'Off';
  if (Array.isArray(value)) return value.map((v) => settingValue('', v)).join(', ');
  if (isPlainRecord(value)) {
    return Object.entries(value)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => `${settingLabel(k)} ${settingValue(k, v)}`)
      .join(', ');
  }
  return String(value);
}

const VIDEO_CONTAINERS: Record<string, string> = {
  MPEG4: 'MP4',
  QUICKTIME: 'QuickTime',
  MKV: 'Matroska',
  WEBM: 'WebM',
  OGG: 'Ogg',
  AVI: 'AVI',
  FLASH: 'Flash',
  MPEG1: 'MPEG-1',
  MPEG2: 'MPEG-2',
  DV: 'DV',
};

const VIDEO_CODECS: Record<string, string> = {
  H264: 'H.264',
  H265: 'H.265',
  AV1: 'AV1',
  WEBM: 'VP9',
  THEORA: 'Theora',
  MPEG4: 'MPEG-4',
  MPEG2: 'MPEG-2',
  MPEG1: 'MPEG-1',
  FLASH: 'Flash Video',
  DV: 'DV',
  DNXHD: 'DNxHD',
  PRORES: 'ProRes',
  PNG: 'PNG',
  QTRLE: 'QuickTime Animation',
  FFV1: 'FFV1',
  HUFFYUV: 'HuffYUV',
};

/** A video container and codec (Blender's names) as the artist knows them: "MP4 (H.264)". */
export function videoLabel(video: { container: string; codec: string }): string {
  return `${VIDEO_CONTAINERS[video.container] ?? video.container} (${VIDEO_CODECS[video.codec] ?? video.codec})`;
}
