import { InvalidArgumentError } from 'commander';
import { COLOR_MANAGEMENT_PRESETS, JOB_STATUSES, OUTPUT_FORMATS, type JobStatusValue as JobStatus } from '../../shared/api-values';
import { parseFrameRanges } from '../../shared/frame-ranges';
import { parseTags } from '../../shared/worker-tags';
import { FRAME_ORDERS, type FrameOrder } from '../../shared/frame-order';

/** An output format of a render configuration. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** A colour management preset. */
export type ColorPreset = (typeof COLOR_MANAGEMENT_PRESETS)[number];

const FORMAT_ALIASES: Record<string, OutputFormat> = {
  JPG: 'JPEG',
  EXR: 'OPEN_EXR',
  OPENEXR: 'OPEN_EXR',
  MULTILAYER: 'OPEN_EXR_MULTILAYER',
  EXR_MULTILAYER: 'OPEN_EXR_MULTILAYER',
  TIF: 'TIFF',
  TGA: 'TARGA',
};

/** `--frames`: one frame range expression (`1-10,20`, `1-100/5`), checked and without blanks. */
export function parseFramesOption(value: string): string {
  const result = parseFrameRanges([value]);
  if (!result.ok) throw new InvalidArgumentError(`${result.error} Example: --frames 1-10,20 or --frames 1-100/5.`);
  return value.replace(/\s+/g, '');
}

/** A parser of a whole number between `min` and `max` for the option `name`. */
export function wholeNumber(name: string, min: number, max: number): (value: string) => number {
  return (value: string) => {
    const text = value.trim();
    if (!/^\d+$/.test(text)) throw new InvalidArgumentError(`${name} takes a whole number from ${min} to ${max}, not "${value}".`);
    const number = Number(text);
    if (number < min || number > max) throw new InvalidArgumentError(`${name} must be from ${min} to ${max} (got ${number}).`);
    return number;
  };
}

/** `--samples <n>` (the render configuration allows 1 to 1,000,000). */
export const parseSamples = wholeNumber('--samples', 1, 1_000_000);
/** `--percentage <n>` (the render configuration allows 1 to 1000). */
export const parsePercentage = wholeNumber('--percentage', 1, 1000);
/** `--page <n>`. */
export const parsePage = wholeNumber('--page', 1, 1_000_000);
/** `--page-size <n>` (the API allows 1 to 100). */
export const parsePageSize = wholeNumber('--page-size', 1, 100);

/** `--format <fmt>`: an output format, any case, with common aliases (jpg, exr, tif). */
export function parseFormatOption(value: string): OutputFormat {
  const key = value.trim().toUpperCase().replace(/[\s-]+/g, '_');
  const format = OUTPUT_FORMATS.find((f) => f === key) ?? FORMAT_ALIASES[key];
  if (!format) throw new InvalidArgumentError(`"${value}" is not an output format. Use one of: ${OUTPUT_FORMATS.join(', ')}.`);
  return format;
}

/** `--preset default|aces`. */
export function parsePresetOption(value: string): ColorPreset {
  const preset = COLOR_MANAGEMENT_PRESETS.find((p) => p === value.trim().toLowerCase());
  if (!preset) throw new InvalidArgumentError(`"${value}" is not a colour preset. Use ${COLOR_MANAGEMENT_PRESETS.join(' or ')}.`);
  return preset;
}

/** `--camera <name>`: a non-empty camera name. */
export function parseCameraOption(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('--camera needs the name of a camera in the scene.');
  return value;
}

/** `--blender-version <version>`: a Blender series ("4.3") or an exact version ("4.3.2"). */
export function parseBlenderVersionOption(value: string): string {
  const version = value.trim();
  if (!/^\d+\.\d+(\.\d+)?$/.test(version)) throw new InvalidArgumentError(`--blender-version takes a Blender version such as 4.3 or 4.3.2, not "${value}".`);
  return version;
}

/** `--scene <path>`: a non-empty path of a `.blend` inside a zip. */
export function parseSceneOption(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('--scene needs the path of a .blend inside the zip, e.g. --scene shots/a.blend.');
  if (!value.trim().toLowerCase().endsWith('.blend')) throw new InvalidArgumentError(`--scene names a .blend file inside the zip, not "${value}".`);
  return value.trim();
}

/** `--view-layer <name>`: a non-empty view layer name. */
export function parseViewLayerOption(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('--view-layer needs the name of a view layer of the scene.');
  return value;
}

/** `--status <s>`: a job status. */
export function parseStatusOption(value: string): JobStatus {
  const status = JOB_STATUSES.find((s) => s === value.trim().toLowerCase());
  if (!status) throw new InvalidArgumentError(`"${value}" is not a job status. Use one of: ${JOB_STATUSES.join(', ')}.`);
  return status;
}

/** `--base-url <url>`: an http or https address, without a trailing slash. */
export function parseBaseUrlOption(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new InvalidArgumentError(`"${value}" is not a URL. Example: --base-url https://farm.example.com`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError(`"${value}" must start with http:// or https://.`);
  if (url.username || url.password) throw new InvalidArgumentError('Put no user name or password in the URL; use `renderdrop login` for the key.');
  if (url.search || url.hash) throw new InvalidArgumentError(`"${value}" must be the server's address only, without ?query or #fragment.`);
  return url.toString().replace(/\/+$/, '');
}

/** `--priority <n>`: a job's priority on a Renderdrop node, 0 (lowest) to 100 (highest; the node's default is 50). */
export const parsePriorityOption = wholeNumber('--priority', 0, 100);

/** `--order spread|sequential`: the order a Renderdrop node renders the frames in. */
export function parseOrderOption(value: string): FrameOrder {
  const order = FRAME_ORDERS.find((o) => o === value.trim().toLowerCase());
  if (!order) throw new InvalidArgumentError(`"${value}" is not a frame order. Use spread (across the shot first) or sequential (in frame order).`);
  return order;
}

/** `--requires big-ram,gpu`: worker tags, checked and lowercased as typed (`Big-RAM, gpu` becomes `big-ram,gpu`). */
export function parseRequiresOption(value: string): string {
  const parsed = parseTags(value);
  if (!parsed.ok) throw new InvalidArgumentError(`${parsed.error.charAt(0).toUpperCase()}${parsed.error.slice(1)} Example: --requires big-ram,gpu.`);
  if (parsed.tags.length === 0) throw new InvalidArgumentError('--requires takes worker tags, for example --requires big-ram,gpu.');
  return parsed.tags.join(',');
}
