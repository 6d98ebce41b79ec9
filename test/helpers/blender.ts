import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { findBlender } from '../../src/render-node/blender/locate';
import { runBlender } from '../../src/render-node/blender/run-blender';
import { blenderScript } from '../../src/render-node/blender/scripts-dir';

/**
 * The Blender integration tests run against. Without one: null (so the caller can
 * `describe.skipIf(!blender)`), except in CI (`CI` set), where a missing Blender fails the run.
 */
export function requireBlender(): string | null {
  let path: string | null = null;
  try {
    path = findBlender({ env: process.env, platform: process.platform }).path;
  } catch (error) {
    if (process.env.CI) throw error;
  }
  if (!path && process.env.CI) {
    throw new Error(
      'Blender is required for the integration tests in CI but was not found. Install it (e.g. `apt install blender`) or set BLENDER_PATH.',
    );
  }
  return path;
}

/** Options of the sample scene (resources/blender/make-sample-scene.py). */
export interface SampleSceneOptions {
  /** Last frame (first is 1); default 3. */
  frames?: number;
  /** Point the cube's texture at the missing //textures/missing-albedo.png (default true). */
  missingTexture?: boolean;
  /** An existing texture to use instead: absolute, or relative to the folder the .blend goes in. */
  texture?: string;
  engine?: 'CYCLES' | 'BLENDER_EEVEE' | 'BLENDER_WORKBENCH';
  /** Add a compositor File Output node named "Extra". */
  fileOutput?: boolean;
  /** Add a sound, a volume, a UDIM image and an image sequence, all pointing at missing files. */
  extraDependencies?: boolean;
  /** Save compressed (zstd). */
  compress?: boolean;
  /** Link the object "Cube" of this .blend (absolute, or relative to `dir`); such scenes are not cached. */
  linkFrom?: string;
  /** Store this path for the texture exactly as given (absolute, or `//../` out of the scene's folder). */
  storedTexture?: string;
  /** Save the scene with its cameras but none of them active. */
  noActiveCamera?: boolean;
  /** Render every sample asked for (Cycles' adaptive sampling off), so a render lasts as its samples say. */
  everySample?: boolean;
  /** File name of the .blend; default "sample.blend" for the default options, else one per option set. */
  name?: string;
}

const generated = new Map<string, Promise<string>>();
let cacheDir: Promise<string> | undefined;
let generatedCount = 0;

function sceneCache(): Promise<string> {
  cacheDir ??= mkdtemp(join(tmpdir(), 'renderdrop-sample-scenes-')).then((dir) => {
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return dir;
  });
  return cacheDir;
}

function scriptArgs(dir: string, options: SampleSceneOptions): string[] {
  const args: string[] = [];
  if (options.frames !== undefined) args.push('--frames', String(options.frames));
  if (options.engine) args.push('--engine', options.engine);
  if (options.texture) {
    const abs = isAbsolute(options.texture) ? options.texture : resolve(dir, options.texture);
    args.push('--with-texture', `//${relative(dir, abs).split('\\').join('/')}`);
  } else if (options.missingTexture === false) {
    args.push('--no-missing-texture');
  }
  if (options.fileOutput) args.push('--file-output');
  if (options.extraDependencies) args.push('--extra-dependencies');
  if (options.compress) args.push('--compress');
  if (options.storedTexture) args.push('--stored-texture', options.storedTexture);
  if (options.noActiveCamera) args.push('--no-active-camera');
  if (options.everySample) args.push('--every-sample');
  return args;
}

async function generate(blender: string, args: string[], out: string): Promise<void> {
  const result = await runBlender({
    blenderPath: blender,
    args: ['-b', '-Y', '--factory-startup', '--python-exit-code', '1', '--python', blenderScript('make-sample-scene.py'), '--', out, ...args],
    timeoutMs: 120_000,
  });
  if (result.exitCode !== 0) {
    throw new Error(`make-sample-scene.py failed (exit ${result.exitCode}):\n${result.stdout.slice(-2000)}\n${result.stderr.slice(-2000)}`);
  }
}

/**
 * Write the sample scene into `dir` and return its path. Each option set is generated once per test
 * run and copied from there (texture paths are stored relative to the .blend, so copies stay valid).
 */
export async function makeSampleScene(dir: string, options: SampleSceneOptions = {}): Promise<string> {
  const blender = requireBlender();
  if (!blender) throw new Error('makeSampleScene needs Blender; guard the test with requireBlender().');
  const { name, linkFrom, ...rest } = options;
  const args = scriptArgs(resolve(dir), rest);
  const key = args.join('\0');
  const fileName = name ?? (args.length === 0 && !linkFrom ? 'sample.blend' : `sample-${createHash('sha1').update(key + String(linkFrom)).digest('hex').slice(0, 8)}.blend`);
  if (linkFrom) {
    const target = join(dir, fileName);
    await mkdir(dir, { recursive: true });
    await generate(blender, [...args, '--link-from', resolve(dir, linkFrom)], target);
    return target;
  }
  let cached = generated.get(key);
  if (!cached) {
    const index = generatedCount++;
    cached = sceneCache().then(async (cache) => {
      const out = join(cache, `${index}.blend`);
      await generate(blender, args, out);
      return out;
    });
    generated.set(key, cached);
    cached.catch(() => generated.delete(key));
  }
  const source = await cached;
  await mkdir(dir, { recursive: true });
  const target = join(dir, fileName);
  await copyFile(source, target);
  return target;
}
