/** Reads `--name=value` from the command line, else `BENCH_<NAME>` from the environment, else `fallback`. */
export function option(name: string, fallback: string): string {
  const prefix = `--${name}=`;
  const fromArgs = process.argv.slice(2).find((arg) => arg.startsWith(prefix));
  if (fromArgs !== undefined) return fromArgs.slice(prefix.length);
  const fromEnv = process.env[`BENCH_${name.toUpperCase().replace(/-/g, '_')}`];
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : fallback;
}

/** A whole number option of at least `min`. */
export function intOption(name: string, fallback: number, min = 1): number {
  const text = option(name, String(fallback));
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be a whole number of at least ${min} (got "${text}").`);
  return value;
}

const UNITS: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };

/** Parses a size such as `4096`, `64K`, `512M`, `1G` or `4GiB` (binary units) into bytes. */
export function parseSize(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([KMG]?)(?:i?B)?\s*$/i.exec(text);
  if (!match) throw new Error(`"${text}" is not a size (examples: 4096, 64M, 1G).`);
  const bytes = Math.round(Number(match[1]) * UNITS[match[2]!.toUpperCase()]!);
  if (bytes <= 0) throw new Error(`"${text}" is not a positive size.`);
  return bytes;
}

/** A size option. */
export function sizeOption(name: string, fallback: string): number {
  return parseSize(option(name, fallback));
}

/** A comma-separated list of sizes. */
export function sizesOption(name: string, fallback: string): number[] {
  return option(name, fallback)
    .split(',')
    .filter((part) => part.trim() !== '')
    .map(parseSize);
}

/** A size in the largest binary unit that divides it evenly enough to read: `1 GiB`, `1.5 MiB`. */
export function sizeLabel(bytes: number): string {
  for (const [unit, factor] of [['GiB', 1024 ** 3], ['MiB', 1024 ** 2], ['KiB', 1024]] as const) {
    if (bytes >= factor) return `${Number((bytes / factor).toFixed(2))} ${unit}`;
  }
  return `${bytes} B`;
}
