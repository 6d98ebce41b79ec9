import type { Logger } from 'pino';
import type { FastifyRequest } from 'fastify';
import type { ApiKeyInfo, Db, JobsRepo, UploadsRepo } from '../store';
import type { Storage } from '../disk';
import type { UrlSigner } from './signing';
import type { JobRunner } from '../jobs';
import type { NodeCapabilities, RenderLimits } from '../plan';
import type { NodeWorkers } from '../../shared/api';
import type { JobLogs } from '../logs';
import type { FfmpegLookup } from '../video';
import type { ChunkStore } from '../chunk-store';

/** Everything the routes share. */
export interface NodeContext {
  db: Db;
  log: Logger;
  jobs: JobsRepo;
  uploads: UploadsRepo;
  storage: Storage;
  signer: UrlSigner;
  runner: JobRunner;
  workspaceId: string;
  capabilities: NodeCapabilities;
  /** What one render may ask of this node. */
  limits: RenderLimits;
  /** Disk space kept free beyond what a request or step is expected to write. */
  headroomBytes: number;
  /** Lifetime of a presigned upload URL. */
  uploadUrlTtlMs: number;
  /** Lifetime of a signed download URL. */
  downloadUrlTtlMs: number;
  /** The base URL links are built on, from the option or the request. */
  baseUrl: (request?: FastifyRequest) => string;
  now: () => Date;
  /** How the node renders and, in distributed mode, its render workers. */
  workers: () => Promise<NodeWorkers>;
  /** Keep a render worker from a job (or every job, `jobId` null) by hand, or let it take them again; null on a node without render workers. */
  setWorkerBlock: ((block: boolean, worker: string, jobId: string | null) => Promise<NodeWorkers>) | null;
  /** What Blender printed for each job. */
  logs: JobLogs;
  /** Aborted when the node stops and requests still running must give up. */
  stopping: AbortSignal;
  /** The chunks of chunked uploads (null: the node does not take them). */
  chunkStore: ChunkStore | null;
  /** The node's FFmpeg (null: it makes no videos), looked for when first needed. */
  ffmpeg: FfmpegLookup;
}

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: ApiKeyInfo;
  }
}
