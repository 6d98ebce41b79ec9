import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { analysisFactsSchema, type AnalysisFacts } from './analysis-facts';
import { parseEventLine } from './event-lines';
import { blenderErrorLines, runBlender, type BlenderRunResult } from './run-blender';
import { blenderScript } from './scripts-dir';

/** What a Blender installation can do, as {@link probeBlender} found out by asking it. */
export interface BlenderInfo {
  path: string;
  /** e.g. "3.4.1" */
  version: string;
  versionParts: [number, number, number];
  /** Cycles device types that have at least one device here; "CPU" is always first. */
  cyclesDevices: string[];
  openImageDenoise: boolean;
  /** An OptiX device is present (the OptiX denoiser needs one). */
  optix: boolean;
  /** View transforms of the default display of the OCIO config Blender loaded. */
  viewTransforms: string[];
  /** Whether one of those view transforms is an ACES one (stock configs before Blender 5 have none). */
  hasAces: boolean;
  /** Result of {@link checkEevee} when it was run, else null. */
  eeveeUsable: boolean | null;
  displayDevices: string[];
  looks: string[];
  colorSpaces: string[];
  /** The `OCIO` environment variable Blender saw, when a custom config is in use. */
  ocioConfig: string | null;
  /** What the .blend reader needs to analyse a scene without this Blender; absent from older probes. */
  analysisFacts?: AnalysisFacts | null;
}

const probeOutputSchema = z.object({
  version: z.string(),
  versionParts: z.tuple([z.number(), z.number(), z.number()]),
  cyclesDevices: z.array(z.string()),
  openImageDenoise: z.boolean(),
  optix: z.boolean(),
  viewTransforms: z.array(z.string()),
  displayDevices: z.array(z.string()),
  looks: z.array(z.string()),
  colorSpaces: z.array(z.string()),
  ocioConfig: z.string().nullable(),
  analysisFacts: analysisFactsSchema.nullable().catch(null).optional(),
});

/** Options of {@link probeBlender} and {@link checkEevee}. */
export interface ProbeOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

/** Blender ran but the probe did not produce an answer. */
export class BlenderProbeError extends Error {
  override readonly name = 'BlenderProbeError';
}

function describeFailure(what: string, result: BlenderRunResult, timeoutMs: number): string {
  if (result.timedOut) return `${what} did not finish within ${Math.round(timeoutMs / 1000)} s.`;
  if (result.aborted) return `${what} was cancelled.`;
  const how = result.signal ? `was killed by ${result.signal}` : `exited with code ${result.exitCode}`;
  const detail = blenderErrorLines(result).at(-1) ?? result.stderr.trim().split('\n').at(-1) ?? '';
  return `${what} ${how}${detail ? `: ${detail}` : '.'}`;
}

/**
 * Ask the Blender at `path` for its version, Cycles devices, denoisers and colour management
 * (runs resources/blender/probe.py with factory settings). `eeveeUsable` is left null; see {@link checkEevee}.
 */
export async function probeBlender(path: string, options: ProbeOptions = {}): Promise<BlenderInfo> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const dir = await mkdtemp(join(tmpdir(), 'renderdrop-probe-'));
  try {
    const out = join(dir, 'probe.json');
    const result = await runBlender({
      blenderPath: path,
      args: ['-b', '-Y', '--factory-startup', '--python-exit-code', '1', '--python', blenderScript('probe.py'), '--', out],
      timeoutMs,
      signal: options.signal,
      env: options.env,
    });
    if (result.exitCode !== 0) throw new BlenderProbeError(describeFailure(`Blender at ${path}`, result, timeoutMs));
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(out, 'utf8'));
    } catch {
      throw new BlenderProbeError(`Blender at ${path} ran but did not report its capabilities.`);
    }
    const info = probeOutputSchema.parse(raw);
    return {
      path,
      ...info,
      hasAces: info.viewTransforms.some((v) => /aces/i.test(v)),
      eeveeUsable: null,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Whether EEVEE can render here, and if not why. */
export interface EeveeCheck {
  usable: boolean;
  reason: string | null;
  /** The OpenGL renderer EEVEE ran on (e.g. "Mesa/X.org llvmpipe ..."), when it ran. */
  gpu: string | null;
}

/**
 * Render one 8x8 EEVEE frame with one sample in a separate Blender, with a time-out (default 60 s).
 * EEVEE needs an OpenGL context, which headless machines may not have.
 */
export async function checkEevee(path: string, options: ProbeOptions = {}): Promise<EeveeCheck> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const dir = await mkdtemp(join(tmpdir(), 'renderdrop-eevee-'));
  try {
    let gpu: string | null = null;
    let ok = false;
    const result = await runBlender({
      blenderPath: path,
      args: ['-b', '-Y', '--factory-startup', '--python-exit-code', '1', '--python', blenderScript('check-eevee.py'), '--', join(dir, 'eevee.png')],
      timeoutMs,
      signal: options.signal,
      env: options.env,
      onStdoutLine(line) {
        const event = parseEventLine(line);
        if (event?.event === 'eevee') {
          ok = true;
          gpu = event.gpu;
        }
      },
    });
    if (result.exitCode === 0 && ok) return { usable: true, reason: null, gpu };
    return { usable: false, reason: describeFailure('The EEVEE test render', result, timeoutMs), gpu };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * What a node or render worker renders with: the Blender at `path` probed, with the EEVEE test render
 * run beside the probe (`eeveeUsable` set from it). A test render that cannot run counts as EEVEE not usable.
 */
export async function probeForRendering(path: string, options: ProbeOptions = {}): Promise<{ info: BlenderInfo; eevee: EeveeCheck }> {
  const [info, eevee] = await Promise.all([
    probeBlender(path, options),
    checkEevee(path, options).catch((error: unknown): EeveeCheck => ({ usable: false, reason: error instanceof Error ? error.message : String(error), gpu: null })),
  ]);
  return { info: { ...info, eeveeUsable: eevee.usable }, eevee };
}
