import type { Logger } from 'pino';
import type { JobsRepo } from '../../store';
import type { RenderTask } from '../../jobs';
import type { UrlSigner } from '../../http';
import type { ChunkRecord, ChunksRepo } from '../chunks-repo';
import type { ChunkData } from '../protocol';
import type { RedisTarget } from '../../worker-access';

/** How the node renders on workers. */
export interface DistributedOptions {
  redis: RedisTarget;
  /** Frames per chunk; null chooses from the job's frames and the connected workers. */
  chunkSize: number | null;
  /** How often each render's chunks are checked against the queue (ms; default 5000). */
  reconcileMs?: number;
  /** The worker secret chunks are signed with (else the node reads it from its data folder). */
  workerSecret?: string;
}

/** What the executor needs from the node. */
export interface DistributedExecutorDeps {
  workspaceId: string;
  jobs: JobsRepo;
  chunks: ChunksRepo;
  signer: UrlSigner;
  uploadPath: (slug: string) => string;
  log: Logger;
  now: () => Date;
}

/** A render the node is coordinating right now. */
export interface ActiveRender {
  task: RenderTask;
  chunks: Map<number, ChunkRecord>;
  scene: ChunkData['scene'];
  /** Frames being received, so two uploads of one frame never race. */
  receiving: Set<number>;
  /** The Blender version every chunk renders with (kept in SQLite once chosen); null until a worker can open the scene. */
  blender: string | null;
}
