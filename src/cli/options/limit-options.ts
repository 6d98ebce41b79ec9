/** Parsers of the limit options of `renderdrop node serve`; each throws a message naming the option. */

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3600_000, d: 86_400_000 };
const SIZE_UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

/** "90s", "30m", "24h", "7d" (or "1500ms") as milliseconds, at least 1 s. */
export function parseDuration(value: string, option: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(value.trim());
  const ms = m ? Number(m[1]) * DURATION_UNITS[m[2]!]! : NaN;
  if (!(ms >= 1000)) throw new Error(`${option} must be a duration of at least 1s, such as 90s, 30m, 24h or 7d (got "${value}").`);
  return Math.round(ms);
}

/** "20G", "512M", "1T" (binary units) or a plain byte count, at least 1. */
export function parseByteSize(value: string, option: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?$/i.exec(value.trim());
  const bytes = m ? Math.floor(Number(m[1]) * SIZE_UNITS[m[2]!.toLowerCase()]!) : NaN;
  if (!(bytes >= 1)) throw new Error(`${option} must be a size such as 20G, 512M or a number of bytes (got "${value}").`);
  return bytes;
}

/** "8192x8192" (width x height) or a plain pixel count, at least 1. */
export function parsePixelCount(value: string, option: string): number {
  const m = /^(\d+)\s*[x×*]\s*(\d+)$/i.exec(value.trim()) ?? /^(\d+)$/.exec(value.trim());
  const pixels = m ? Number(m[1]) * (m[2] === undefined ? 1 : Number(m[2])) : NaN;
  if (!(pixels >= 1) || !Number.isSafeInteger(pixels)) throw new Error(`${option} must be a size such as 8192x8192 or a number of pixels (got "${value}").`);
  return pixels;
}
