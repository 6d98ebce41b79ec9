import type { FailedReason } from '../../shared/api';
import type { RenderPlan } from '../plan';
import type { UrlSigner } from '../http';
import { describeFrames } from './chunk-plan';
import { signChunk } from './chunk-signature';
import { CHUNK_DATA_VERSION, CHUNK_SIGNING_KEY, chunkPathPrefix, type ChunkData, type ChunkPlan } from './protocol';
import type { WorkerKeys } from '../worker-access';

/** The part of a node's render plan a worker needs; folders are the worker's own. */
export function toChunkPlan(plan: RenderPlan): ChunkPlan {
  return {
    fileNamePattern: plan.fileNamePattern,
    outputFormat: plan.outputFormat,
    outputSettings: {
      colorMode: str(plan.outputSettings.colorMode),
      colorDepth: str(plan.outputSettings.colorDepth),
      exrCodec: str(plan.outputSettings.exrCodec),
      tiffCodec: str(plan.outputSettings.tiffCodec),
      compression: num(plan.outputSettings.compression),
      quality: num(plan.outputSettings.quality),
    },
    engine: plan.engine,
    samples: plan.samples,
    resolution: plan.resolution,
    resolutionPercentage: plan.resolutionPercentage,
    fps: plan.fps,
    camera: plan.camera,
    viewLayer: plan.viewLayer,
    denoise: plan.denoise,
    device: plan.device,
    useTiling: plan.useTiling,
    tileSize: plan.tileSize,
    colorManagement: plan.colorManagement,
    scenePython: plan.scenePython === true,
    stepFrom: plan.oneRun ? (plan.frames[0] ?? null) : null,
  };
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

/**
 * Everything a worker needs for one chunk, with URLs signed for that chunk only, the whole signed with
 * the worker secret's chunk key so that workers act on nothing Redis changed.
 */
export function buildChunkData(input: {
  workspaceId: string;
  jobId: string;
  index: number;
  generation: number;
  frames: number[];
  /** The Blender version every chunk of the job renders with. */
  blender: string;
  /** The worker tags the job requires (read from the job when the chunk is queued). */
  requires: readonly string[];
  scene: ChunkData['scene'];
  plan: RenderPlan;
  signer: UrlSigner;
  keys: WorkerKeys;
  expiresAt: Date;
}): ChunkData {
  const prefix = chunkPathPrefix(input.jobId, input.index);
  return signChunk(input.keys, {
    v: CHUNK_DATA_VERSION,
    node: input.workspaceId,
    jobId: input.jobId,
    index: input.index,
    generation: input.generation,
    frames: input.frames,
    blender: input.blender,
    requires: [...input.requires],
    scene: input.scene,
    plan: toChunkPlan(input.plan),
    get: input.signer.sign('GET', prefix, input.expiresAt, CHUNK_SIGNING_KEY),
    put: input.signer.sign('PUT', prefix, input.expiresAt, CHUNK_SIGNING_KEY),
  });
}

/** BullMQ's reason when a chunk's workers kept vanishing (killed, or cut off from Redis). */
const STALLED = /stalled more than allowable limit/i;

/** How many times, in words. */
function times(n: number): string {
  return n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`;
}

/**
 * Why a job failed when one of its chunks failed for good: which frames, on which workers, and the
 * last error a worker reported.
 */
export function chunkFailureReason(input: {
  frames: readonly number[];
  lastError: string | null;
  attempts: number;
  /** Chunk failures of this job per worker name. */
  failures: Readonly<Record<string, number>>;
}): FailedReason {
  const frames = describeFrames(input.frames);
  const who = Object.entries(input.failures)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, n]) => `${name} ${times(n)}`);
  const workers = Object.keys(input.failures).sort();
  const last = input.lastError?.trim() || 'no error was reported';
  const message = STALLED.test(last)
    ? `Frames ${frames} were left unfinished again and again: their workers stopped or lost Redis mid-render.`
    : `Frames ${frames} failed ${times(Math.max(1, input.attempts))}${who.length ? ` (${who.join(', ')})` : ''}. Last error: ${last}`;
  return { name: 'ChunkFailed', type: 'render', message, frames: [...input.frames], workers };
}
