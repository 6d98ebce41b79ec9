import { z } from 'zod';
import { MAX_TAGS, MAX_WORKER_FAILURES } from '../../shared/api';

/**
 * What the node and its render workers agree on in Redis: the BullMQ queue of frame chunks, the keys
 * beside it, and the shape of a chunk. Redis is not trusted: every chunk carries the node's signature
 * made with the worker secret, which workers check before acting (see docs/studio.md).
 */
export const REDIS_PREFIX = 'renderdrop';
export const CHUNK_QUEUE = 'chunks';

export const redisKeys = {
  /** Sorted set of worker ids by when each was last seen (ms). */
  workers: `${REDIS_PREFIX}:workers`,
  /** One worker's record (JSON), kept for {@link WORKER_KEEP_MS} after it last reported (then listed as offline). */
  worker: (id: string) => `${REDIS_PREFIX}:worker:${id}`,
  /** Hash: worker name -> chunks of this job it failed. */
  failures: (jobId: string) => `${REDIS_PREFIX}:failures:${jobId}`,
  /**
   * Hash: worker name -> JSON `{ by, since }`: workers kept from this job, by hand (`by: "hand"`: they
   * never take its chunks) or after failing {@link MAX_FAILURES_PER_WORKER} of them (`by: "failures"`:
   * they hand its chunks over while another worker can take them). Kept {@link JOB_KEY_TTL_SECONDS}.
   */
  jobBlocks: (jobId: string) => `${REDIS_PREFIX}:blocks:${jobId}`,
  /** Hash: worker name -> JSON `{ by: "hand", since }`: workers kept from every job by hand, until unblocked. */
  everyJobBlocks: `${REDIS_PREFIX}:blocks-every-job`,
  /** Sorted set: ids of jobs with a {@link redisKeys.jobBlocks} hash, by when a block was last set (ms), so blocks are listed without a scan. */
  blockedJobs: `${REDIS_PREFIX}:blocked-jobs`,
  /** Set when a job is canceled, for workers that pick up one of its chunks later. */
  canceled: (jobId: string) => `${REDIS_PREFIX}:canceled:${jobId}`,
  /** Pub/sub channel: a job id, published when the job must stop on every worker. */
  cancelChannel: `${REDIS_PREFIX}:cancel`,
} as const;

/** A worker is live while it reported within this time. */
export const WORKER_LIVE_MS = 30_000;
/** How long a worker that stopped reporting (or stopped cleanly) stays in the worker list, as offline. */
export const WORKER_KEEP_MS = 24 * 3600_000;
/** How often a worker reports that it is alive. */
export const WORKER_HEARTBEAT_MS = 5_000;
/** A worker that failed this many chunks of one job is blocked for it: it stops taking that job's chunks while others can. */
export const MAX_FAILURES_PER_WORKER = MAX_WORKER_FAILURES;
/** Tries of one chunk before the job fails. */
export const CHUNK_ATTEMPTS = 3;
/** How long the per-job keys (failures, canceled) are kept. */
export const JOB_KEY_TTL_SECONDS = 7 * 24 * 3600;

/** The BullMQ job id of chunk `index` of a job, in its `generation` (bumped when a chunk is enqueued anew). */
export function chunkJobId(jobId: string, index: number, generation: number): string {
  return `${jobId}_${index}_${generation}`;
}

/** The parts of a chunk job id, or null for an id that is not one. */
export function parseChunkJobId(id: string): { jobId: string; index: number; generation: number } | null {
  const m = /^([0-9a-f-]{36})_(\d+)_(\d+)$/.exec(id);
  return m ? { jobId: m[1]!, index: Number(m[2]), generation: Number(m[3]) } : null;
}

/**
 * The key id chunk URLs are signed for. They belong to no API key: they live as long as their job
 * renders (the node refuses them after), and a signature covers the chunk's path prefix only.
 */
export const CHUNK_SIGNING_KEY = 'render-worker';

/** The path prefix a chunk's signed URLs cover: `/storage/render/<job>/chunks/<index>/`. */
export function chunkPathPrefix(jobId: string, index: number): string {
  return `/storage/render/${jobId}/chunks/${index}/`;
}

const nullable = <T extends z.ZodType>(schema: T) => schema.nullish();

/** The render plan a worker applies (the node's plan; the worker chooses the folders itself). */
export const chunkPlanSchema = z.object({
  fileNamePattern: nullable(z.string()),
  outputFormat: nullable(z.string()),
  outputSettings: nullable(
    z.object({
      colorMode: nullable(z.string()),
      colorDepth: nullable(z.string()),
      exrCodec: nullable(z.string()),
      tiffCodec: nullable(z.string()),
      compression: nullable(z.number()),
      quality: nullable(z.number()),
    }),
  ),
  engine: nullable(z.string()),
  samples: nullable(z.number().int()),
  resolution: nullable(z.tuple([z.number().int(), z.number().int()])),
  resolutionPercentage: nullable(z.number().int()),
  fps: nullable(z.number()),
  camera: nullable(z.string()),
  viewLayer: nullable(z.string()),
  denoise: nullable(z.object({ enabled: z.boolean(), denoiser: nullable(z.string()) })),
  device: nullable(z.string()),
  useTiling: nullable(z.boolean()),
  tileSize: nullable(z.number().int()),
  colorManagement: nullable(z.object({ viewTransform: nullable(z.string()), look: nullable(z.string()) })),
  /** The worker's Blender runs the scene's own Python (the node trusts its scenes). */
  scenePython: nullable(z.boolean()),
  /**
   * The scene simulates without a bake: Blender steps through every frame from this one up to the first
   * it renders (without rendering them), so that frame follows from the ones before; absent or null: none.
   */
  stepFrom: z.number().int().nullish(),
});
export type ChunkPlan = z.infer<typeof chunkPlanSchema>;

/** The version of the chunk data; workers refuse other versions. */
export const CHUNK_DATA_VERSION = 4;

/** The data of one chunk job in the queue, signed by the node (`sig`) with the worker secret. */
export const chunkDataSchema = z.object({
  v: z.literal(CHUNK_DATA_VERSION),
  /** Workspace id of the node that owns the job. */
  node: z.string().min(1),
  jobId: z.string().uuid(),
  index: z.number().int().min(0),
  /** The chunk's generation: its queue entry must be {@link chunkJobId} of job, index and generation. */
  generation: z.number().int().min(0),
  frames: z.array(z.number().int().min(0)).min(1),
  /** The Blender version (as workers report theirs, e.g. "4.3.2") every chunk of the job renders with; only workers of it take the chunk. */
  blender: z.string().min(1),
  /** Worker tags the job requires: only workers carrying every one of them take the chunk. */
  requires: z.array(z.string().min(1)).max(MAX_TAGS),
  scene: z.object({
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    size: z.number().int().positive(),
    kind: z.enum(['blend', 'zip']),
    /** The .blend to open: inside the bundle for a zip, else the file name to give it. */
    path: z.string().min(1),
  }),
  plan: chunkPlanSchema,
  /** Signed query strings for GET and PUT under the chunk's path prefix (valid only with a request signature). */
  get: z.string(),
  put: z.string(),
  /** HMAC-SHA256 (hex) of everything above with the chunk key of the worker secret. */
  sig: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ChunkData = z.infer<typeof chunkDataSchema>;

/** Words a worker's failure reason holds when it refused a chunk whose signature did not hold. */
export const TAMPERED_MARK = 'refused as tampered';

/** What `GET .../chunks/<index>/status` tells a worker. */
export const chunkStatusSchema = z.object({
  /** False once the job is canceled, failed or done: the worker stops. */
  active: z.boolean(),
  /** Frames of the chunk the node already has. */
  have: z.array(z.number().int()),
});
export type ChunkStatus = z.infer<typeof chunkStatusSchema>;
