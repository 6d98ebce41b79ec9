import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { requireBlender } from './blender';

/** The Blender versions the tests render with: Debian's own, and the ones scripts/blenders.sh builds. */
export const BLENDER_SERIES = ['3.4', '4.3', '5.2'] as const;

/** One of {@link BLENDER_SERIES}. */
export type BlenderSeries = (typeof BLENDER_SERIES)[number];

/** A Blender under test: its path, or null with the reason it is missing (outside CI only). */
export interface BlenderUnderTest {
  series: BlenderSeries;
  path: string | null;
  /** Why `path` is null, for the name of the skipped tests. */
  missing: string | null;
}

/** Where scripts/blenders.sh puts the `blender-X.Y` wrappers (also found on PATH). */
export function blendersBinDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.RENDERDROP_BLENDERS_DIR || '/var/cache/renderdrop', 'bin');
}

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findWrapper(series: BlenderSeries, env: NodeJS.ProcessEnv): string | null {
  const name = `blender-${series}`;
  const dirs = [...(env.PATH ?? '').split(delimiter).filter((d) => d !== ''), blendersBinDir(env)];
  for (const dir of dirs) {
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

function locate(series: BlenderSeries): BlenderUnderTest {
  if (series === '3.4') {
    const path = requireBlender();
    return { series, path, missing: path ? null : 'no Blender installed (apt install blender, or BLENDER_PATH)' };
  }
  const path = findWrapper(series, process.env);
  if (path) return { series, path, missing: null };
  const missing = `no blender-${series} on PATH or in ${blendersBinDir()} (bash scripts/test.sh builds it)`;
  if (process.env.CI) {
    throw new Error(
      `Blender ${series} is required for the integration tests in CI but ${missing.replace(/^no /, 'there is no ')}. ` +
        'Run `bash scripts/test.sh` (its ensure_blenders builds it), or `bash scripts/blenders.sh` alone.',
    );
  }
  return { series, path: null, missing };
}

/**
 * Every Blender the tests render with, in {@link BLENDER_SERIES} order: the system's (the one
 * {@link requireBlender} finds, Debian's 3.4) and the `blender-4.3` and `blender-5.2` wrappers of
 * scripts/blenders.sh. A missing one has `path` null and says why, so its tests can be skipped by name;
 * in CI (`CI` set) a missing one throws instead. The series is what the Blender should be: tests that
 * depend on it check the version the Blender reports.
 */
export function blendersUnderTest(): BlenderUnderTest[] {
  return BLENDER_SERIES.map(locate);
}

/**
 * The path of the Blender of `series`, or null (outside CI) when it is not here; throws in CI when it
 * is missing, like {@link requireBlender}.
 */
export function requireBlenderSeries(series: BlenderSeries): string | null {
  return locate(series).path;
}
