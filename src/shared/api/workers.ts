import { z } from 'zod';
import { workerBlockSchema } from './studio';

/** What a render worker is doing: nothing, or frames of one job. */
export const workerActivitySchema = z.object({
  jobId: z.string(),
  /** The frames of the chunk it works on. */
  frames: z.array(z.number().int()),
  /** The frame Blender is on, when it has started one. */
  frame: z.number().int().nullable(),
});

/** A render worker connected to a Renderdrop node in distributed mode. */
export const workerInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  host: z.string(),
  /** Version of the worker's Blender, e.g. "4.2.3". */
  blenderVersion: z.string(),
  /** Cycles device types it can render on; "CPU" first. */
  devices: z.array(z.string()),
  /** Whether its Blender can render EEVEE and Workbench (they draw with the GPU); null or absent: not checked. */
  eevee: z.boolean().nullish(),
  /** Blender threads per render, or null for all cores. */
  threads: z.number().int().nullable(),
  /** The tags it carries (`gpu`, `big-ram`): a job that requires tags renders only on workers with all of them. Absent from older workers: none. */
  tags: z.array(z.string()).optional(),
  /**
   * `disk-full`: its own disk filled up; it takes no chunks until it has room again. `offline`: it
   * stopped reporting (stopped, crashed or cut off); listed for a day after it was last seen.
   */
  state: z.enum(['idle', 'rendering', 'disk-full', 'offline']),
  /** Why it is in its state, in words for people, when it is not simply idle or rendering. */
  reason: z.string().nullish(),
  current: workerActivitySchema.nullable(),
  startedAt: z.string(),
  lastSeenAt: z.string(),
  /** Frames it has rendered and delivered since it started. */
  framesRendered: z.number().int(),
  /** Chunks it failed since it started (absent from older workers). */
  chunksFailed: z.number().int().optional(),
});
export type WorkerInfo = z.infer<typeof workerInfoSchema>;

/**
 * `GET /api/external/v1/node/workers`, an extension of the Renderdrop node (not part of the Render
 * Job API): how the node renders, and its workers when they are render workers on Redis.
 */
export const nodeWorkersSchema = z.discriminatedUnion('mode', [
  z.object({
    mode: z.literal('embedded'),
    /** The Blender versions the node renders with, oldest first (absent from older nodes). */
    blenderVersions: z.array(z.string()).optional(),
    /** Renders the node runs at once, and the Blender threads of each (null: all cores). */
    renders: z.number().int().optional(),
    threads: z.number().int().nullable().optional(),
    /** The tags of the node itself (it renders every job): a job that requires others waits. */
    tags: z.array(z.string()).optional(),
  }),
  z.object({
    mode: z.literal('distributed'),
    /** The Blender versions of the connected render workers, oldest first (absent from older nodes). */
    blenderVersions: z.array(z.string()).optional(),
    /** The Redis the node uses, without its password. */
    redis: z.string(),
    /** Frame chunks waiting for a worker, being rendered, and waiting to be retried. */
    chunks: z.object({ waiting: z.number().int(), active: z.number().int(), delayed: z.number().int() }),
    /** Workers that reported lately, and for a day those that stopped (`offline`). */
    workers: z.array(workerInfoSchema),
    /** Workers kept from a job or from every job (absent from older nodes). */
    blocks: z.array(workerBlockSchema).optional(),
  }),
]);
export type NodeWorkers = z.infer<typeof nodeWorkersSchema>;
