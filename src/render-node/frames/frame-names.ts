/**
 * The file names Blender gives a frame, so the node accepts a worker's upload only under a name that
 * frame really has. Facts of Blender's `frame_path` (checked against Blender 3.4): the last run of `#`
 * becomes the frame, zero-padded to the run's length (4 when there is none, then the number is
 * appended); a known image extension at the end is kept when it suits the format (in its own case)
 * and replaced by the format's extension otherwise; any other ending gets the extension appended.
 */

const EXTENSIONS: Record<string, readonly string[]> = {
  PNG: ['.png'],
  JPEG: ['.jpg', '.jpeg'],
  OPEN_EXR: ['.exr'],
  OPEN_EXR_MULTILAYER: ['.exr'],
  TIFF: ['.tif', '.tiff'],
  BMP: ['.bmp'],
  TARGA: ['.tga'],
  TARGA_RAW: ['.tga'],
  WEBP: ['.webp'],
  JPEG2000: ['.jp2', '.j2c'],
  CINEON: ['.cin'],
  DPX: ['.dpx'],
  HDR: ['.hdr'],
  IRIS: ['.rgb', '.sgi'],
};

const KNOWN = new Set(Object.values(EXTENSIONS).flat());

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot).toLowerCase();
}

/** The pattern with its frame number in place: `shot_####` and 7 give `shot_0007`. */
export function framePathStem(pattern: string, frame: number): string {
  const runs = [...pattern.matchAll(/#+/g)];
  const last = runs.at(-1);
  const digits = (width: number) => `${frame < 0 ? '-' : ''}${String(Math.abs(frame)).padStart(width, '0')}`;
  if (!last || last.index === undefined) return `${pattern}${digits(4)}`;
  return `${pattern.slice(0, last.index)}${digits(last[0].length)}${pattern.slice(last.index + last[0].length)}`;
}

/** Every name Blender may write frame `frame` under, for a file name pattern and an output format. */
export function expectedFrameNames(pattern: string, format: string, frame: number): string[] {
  const stem = framePathStem(pattern, frame);
  const wanted = EXTENSIONS[format.toUpperCase()];
  if (!wanted) return [];
  const ext = extensionOf(stem);
  if (wanted.includes(ext)) return [stem];
  const base = KNOWN.has(ext) ? stem.slice(0, stem.length - ext.length) : stem;
  return wanted.map((e) => `${base}${e}`);
}
