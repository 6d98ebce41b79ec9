import type { FastifyInstance } from 'fastify';
import { totalmem } from 'node:os';
import type { Logger } from 'pino';
import { workspaceId } from './store/db';
import { loadSigningSecret } from './store/signing-secret';
import { JobsRepo, type JobRecord } from './store/jobs-repo';
import { EstimatesRepo } from './store';
import { UploadsRepo } from './store/uploads-repo';
import { UrlSigner } from './http/signing';
import { JobRunner } from './jobs/job-runner';
import { DEFAULT_HEADROOM_BYTES } from './jobs/job-runner-options';
import type { BlenderRuntime } from './jobs/blender-runtime';
import { readerFactsOf } from './blender/analysis-facts';
import { createRequestLimiter, type RateLimitSpec } from './http/rate-limit';
import { WebhookDispatcher, type WebhookConfig } from './jobs/webhooks';
import { keyIdOfUser } from './store/keys';
import { createLogger } from './logger';
import { registerApiRoutes } from './http/api-routes';
import { registerStorageRoutes } from './http/storage-routes';
import { registerChunkStorageRoute } from './http/chunked/chunk-storage-route';
import { createHttpApp } from './http/http-app';
import { installRequestDrain, type RequestDrain } from './http/request-drain';
import { lazyFfmpeg, type FfmpegLookup } from './video';
import { signedJobFileUrl } from './http/job-payload';
import { cleanUploads } from './store/upload-cleanup';
import { openNodeData, type NodeData } from './store/open-node-data';
import { DEFAULT_RENDER_LIMITS, type RenderLimits } from './plan/render-limits';
import type { NodeContext } from './http/context';
import type { NodeCapabilities } from './plan/node-capabilities';
import { findBlender } from './blender/locate';
import { probeForRendering, type BlenderInfo } from './blender/probe';
import { eeveeFinding } from './blender/doctor';
import type { NodeWorkers } from '../shared/api';
import { checkRedis } from './distributed/redis-connection';
import { DistributedExecutor, type DistributedOptions } from './distributed/executor';
import { ChunksRepo } from './distributed/chunks-repo';
import { ChunkIntake } from './distributed/chunk-intake';
import { registerChunkRoutes } from './distributed/chunk-routes';
import { loadNodeWorkerSecret } from './worker-access/worker-secret';
import { JobLogs } from './logs/job-logs';
import { ChunkStore, DEFAULT_CHUNK_STORE_MAX_BYTES } from './chunk-store';
import { basename, join } from 'node:path';

/** How to run a render node. */
export interface RenderNodeOptions {
  dataDir: string;
  /** Explicit Blender executable; otherwise BLENDER_PATH, PATH and the usual install folders. */
  blenderPath?: string;
  /** A Blender already probed (skips detection; tests and the app reuse one probe). */
  blender?: BlenderInfo | null;
  env?: NodeJS.ProcessEnv;
  /** Base URL for the links the node hands out; default: the address each request came to. */
  publicUrl?: string;
  rateLimit?: RateLimitSpec;
  concurrency?: { renders?: number; validations?: number };
  /** Blender threads per render (null or absent: all cores). */
  threads?: number | null;
  /** Tags of the node's own Blender (`gpu`, `big-ram`): a render that requires others waits. Renders on workers follow the workers' tags. */
  tags?: readonly string[];
  /** What one render may ask of the node (defaults: DEFAULT_RENDER_LIMITS). */
  limits?: Partial<RenderLimits>;
  /** Disk space kept free beyond what a step is expected to write (default 16 MiB). */
  headroomBytes?: number;
  /** Size limit of the store of chunked uploads' chunks (default 20 GiB); 0 turns chunked uploads off. */
  chunkStoreMaxBytes?: number;
  /** How long a render keeps its slot before giving way to another key's (default 60 s). */
  renderTurnMs?: number;
  /** Size of the file given up to record failures when the disk is full (default 4 MiB). */
  reserveBytes?: number;
  uploadUrlTtlMs?: number;
  downloadUrlTtlMs?: number;
  webhook?: WebhookConfig | null;
  logger?: Logger;
  logLevel?: string;
  now?: () => Date;
  /** Render on workers through BullMQ on Redis instead of with this node's Blender. */
  distributed?: DistributedOptions | null;
  /** On close, how long requests in flight may take to finish before they are stopped (default 10 s). */
  shutdownGraceMs?: number;
  /** FFmpeg, which makes the videos of scenes whose output is a video; default: `ffmpeg` on PATH; null: no videos. */
  ffmpegPath?: string | null;
  /**
   * Run the scenes' own Python when rendering (drivers' expressions, text blocks registered as modules):
   * Blender then runs whatever code a scene holds, with this node's rights. Only for scenes from people
   * you trust; default false.
   */
  trustPython?: boolean;
}

/** A running (or ready to listen) render node. */
export interface RenderNode {
  app: FastifyInstance;
  ctx: NodeContext;
  blender: BlenderInfo | null;
  webhooks: WebhookDispatcher;
  /** Listen and start the job runner; resolves to the node's URL. */
  listen(host?: string, port?: number): Promise<string>;
  /**
   * Stop: refuse new requests (503), let those in flight finish (an upload still arriving after the
   * grace period is answered 503 and stays resumable), stop work, then close the database. Jobs resume
   * on the next start.
   */
  close(): Promise<void>;
  /** How the node renders and, in distributed mode, its render workers. */
  workers(): Promise<NodeWorkers>;
}

export const DEFAULT_RATE_LIMIT = { limit: 1200, windowMs: 60_000 };

/** Capabilities for planning from a probed Blender (the video encoders are looked up when a render needs them). */
function capabilitiesOf(info: BlenderInfo | null): NodeCapabilities {
  return {
    cyclesDevices: info?.cyclesDevices ?? ['CPU'],
    openImageDenoise: info?.openImageDenoise ?? false,
    optix: info?.optix ?? false,
    viewTransforms: info?.viewTransforms ?? [],
    eeveeUsable: info?.eeveeUsable ?? null,
    totalMemoryBytes: totalmem(),
  };
}

/**
 * Find and probe the Blender a node or render worker should use, with the EEVEE test render of
 * `node doctor` (its finding logged as doctor words it); null (with the reason logged) when there is none.
 */
export async function detectBlender(opts: { blenderPath?: string; env?: NodeJS.ProcessEnv }, log: Logger): Promise<BlenderInfo | null> {
  const found = await findBlender({ explicit: opts.blenderPath, env: opts.env ?? process.env, platform: process.platform });
  if (!found || !('path' in found) || !found.path) {
    log.warn('no Blender found: jobs will fail until one is installed (run `renderdrop node doctor`)');
    return null;
  }
  const { info, eevee } = await probeForRendering(found.path, { timeoutMs: 60_000 });
  const finding = eeveeFinding(eevee);
  if (finding) log.warn({ blender: info.version }, finding);
  else log.info({ blender: info.version, gpu: eevee.gpu }, 'EEVEE and Workbench can render here');
  return info;
}

/** Where the node is reached; known once it listens (until then the public URL, else 127.0.0.1). */
interface NodeAddresses {
  /** The base of the links the node hands out when no request says where it was reached. */
  listenUrl: string;
}

/** The parts of a node that do its work, on its opened data folder. */
interface NodeParts {
  workspaceId: string;
  jobs: JobsRepo;
  uploads: UploadsRepo;
  chunks: ChunksRepo;
  signer: UrlSigner;
  webhooks: WebhookDispatcher;
  distributed: DistributedExecutor | null;
  runner: JobRunner;
  limits: RenderLimits;
  headroomBytes: number;
  downloadUrlTtlMs: number;
  logs: JobLogs;
  chunkStore: ChunkStore | null;
}

/** What every part of a node is built from. */
interface NodeBasis {
  options: RenderNodeOptions;
  log: Logger;
  now: () => Date;
  blender: BlenderInfo | null;
  /** The node's FFmpeg, which makes videos from frames (null when there is none): looked for when first needed. */
  ffmpeg: FfmpegLookup;
  data: NodeData;
  addresses: NodeAddresses;
}

/** Build a render node on a data folder: database, storage, routes, job runner, webhooks. */
export async function createRenderNode(given: RenderNodeOptions): Promise<RenderNode> {
  const options = await withWorkerSecret(given);
  if (options.distributed) await checkRedis(options.distributed.redis);
  const log = options.logger ?? createLogger({ level: options.logLevel ?? 'info' });
  const now = options.now ?? (() => new Date());
  const blender = options.blender !== undefined ? options.blender : await detectBlender(options, log);
  const data = await openNodeData(options.dataDir, now(), options.reserveBytes);
  if (data.madePrivate) log.warn(data.madePrivate);
  data.reserve.ensure();
  const startUrl = options.publicUrl ?? 'http://127.0.0.1';
  const ffmpeg = lazyFfmpeg({ path: options.ffmpegPath, env: options.env });
  const basis: NodeBasis = { options, log, now, blender, ffmpeg, data, addresses: { listenUrl: startUrl } };
  const parts = buildParts(basis);
  const app = createHttpApp(log);
  const drain = installRequestDrain(app);
  const ctx = nodeContext(basis, parts, drain.stopping);
  await registerRoutes(app, ctx, basis, parts);
  const { listen, close } = nodeLifecycle(app, basis, parts, drain);
  return { app, ctx, blender, webhooks: parts.webhooks, listen, close, workers: () => ctx.workers() };
}

/** In distributed mode, the options with the worker secret (given, else read from the data folder). */
async function withWorkerSecret(options: RenderNodeOptions): Promise<RenderNodeOptions> {
  if (!options.distributed) return options;
  const workerSecret = await loadNodeWorkerSecret(options.dataDir, options.distributed.workerSecret);
  return { ...options, distributed: { ...options.distributed, workerSecret } };
}

function buildParts(basis: NodeBasis): NodeParts {
  const { options, log, now, data } = basis;
  const { db, storage } = data;
  const limits: RenderLimits = { ...DEFAULT_RENDER_LIMITS, ...options.limits };
  const headroomBytes = options.headroomBytes ?? DEFAULT_HEADROOM_BYTES;
  const signer = new UrlSigner(loadSigningSecret(db, storage.dataDir));
  const jobs = new JobsRepo(db, now);
  const uploads = new UploadsRepo(db);
  const webhooks = new WebhookDispatcher(db, options.webhook ?? null, log, now);
  const ws = workspaceId(db);
  const downloadUrlTtlMs = options.downloadUrlTtlMs ?? 6 * 3600_000;
  const chunks = new ChunksRepo(db);
  const distributed = options.distributed
    ? new DistributedExecutor(options.distributed, { workspaceId: ws, jobs, chunks, signer, uploadPath: (slug) => storage.uploadPath(slug), log, now })
    : null;
  const logs = new JobLogs(storage);
  const chunkStoreMax = options.chunkStoreMaxBytes ?? DEFAULT_CHUNK_STORE_MAX_BYTES;
  const chunkStore = chunkStoreMax > 0 ? new ChunkStore({ dir: join(storage.dataDir, 'chunks'), maxBytes: chunkStoreMax, now }) : null;
  const partsSoFar = { workspaceId: ws, jobs, uploads, chunks, signer, webhooks, distributed, limits, headroomBytes, downloadUrlTtlMs, logs, chunkStore };
  return { ...partsSoFar, runner: createJobRunner(basis, partsSoFar) };
}

function createJobRunner(basis: NodeBasis, parts: Omit<NodeParts, 'runner'>): JobRunner {
  const { options, log, data, blender } = basis;
  const { distributed } = parts;
  const runtime: BlenderRuntime | null = blender
    ? {
        path: blender.path,
        version: blender.version,
        openImageDenoise: blender.openImageDenoise,
        optix: blender.optix,
        eeveeUsable: blender.eeveeUsable,
        reader: readerFactsOf(blender),
        runsScenePython: options.trustPython === true,
      }
    : null;
  return new JobRunner({
    jobs: parts.jobs,
    storage: data.storage,
    log,
    blender: runtime,
    ...(distributed ? { executor: distributed } : {}),
    concurrency: { renders: options.concurrency?.renders ?? (distributed ? 32 : 1), validations: options.concurrency?.validations ?? 2 },
    threads: options.threads ?? null,
    tags: options.tags ?? [],
    reserve: data.reserve,
    limits: parts.limits,
    headroomBytes: parts.headroomBytes,
    ffmpeg: basis.ffmpeg,
    capabilities: capabilitiesOf(blender),
    renderTurnMs: options.renderTurnMs,
    env: options.env,
    uploadPath: (slug) => data.storage.uploadPath(slug),
    logs: parts.logs,
    estimates: new EstimatesRepo(data.db),
    onCompleted: (job) => announceCompletion(basis, parts, job),
  });
}

/** Send `onRenderComplete` for a completed job, with links to its frames signed for the job's key. */
function announceCompletion(basis: NodeBasis, parts: Omit<NodeParts, 'runner'>, job: JobRecord): void {
  const { options, now, data, addresses } = basis;
  const expiresAt = new Date(now().getTime() + parts.downloadUrlTtlMs);
  const base = options.publicUrl ?? addresses.listenUrl;
  const keyId = keyIdOfUser(data.db, job.userId) ?? '';
  const frames = parts.jobs.frames(job.id).map((f) => signedJobFileUrl(parts.signer, base, job.id, `frames/${f.filePath.split(/[\\/]/).pop()}`, expiresAt, keyId));
  parts.webhooks.enqueue({
    event: 'onRenderComplete',
    status: 'completed',
    jobId: job.id,
    workspaceId: parts.workspaceId,
    completedAt: job.completedAt ?? now().toISOString(),
    ...(frames.length ? { outputs: { frames } } : {}),
  });
}

function nodeContext(basis: NodeBasis, parts: NodeParts, stopping: AbortSignal): NodeContext {
  const { options, log, now, data, blender, addresses } = basis;
  const { distributed, runner } = parts;
  return {
    db: data.db,
    log,
    jobs: parts.jobs,
    uploads: parts.uploads,
    storage: data.storage,
    signer: parts.signer,
    runner,
    workspaceId: parts.workspaceId,
    capabilities: capabilitiesOf(blender),
    limits: parts.limits,
    headroomBytes: parts.headroomBytes,
    uploadUrlTtlMs: options.uploadUrlTtlMs ?? 3600_000,
    downloadUrlTtlMs: parts.downloadUrlTtlMs,
    baseUrl: (request) => options.publicUrl ?? (request ? `${request.protocol}://${request.host}` : addresses.listenUrl),
    now,
    workers: async () => (distributed ? distributed.workersView() : { mode: 'embedded', ...runner.settings(), ...(blender ? { blenderVersions: [blender.version] } : {}), tags: [...(options.tags ?? [])] }),
    setWorkerBlock: distributed ? (block, worker, jobId) => distributed.setWorkerBlock(block, worker, jobId) : null,
    logs: parts.logs,
    stopping,
    ffmpeg: basis.ffmpeg,
    chunkStore: parts.chunkStore,
  };
}

async function registerRoutes(app: FastifyInstance, ctx: NodeContext, basis: NodeBasis, parts: NodeParts): Promise<void> {
  const { options, blender, now, data } = basis;
  app.get('/healthz', async () => ({ ok: true, blender: blender?.version ?? null }));
  registerApiRoutes(app, ctx, await createRequestLimiter(app, options.rateLimit ?? DEFAULT_RATE_LIMIT));
  registerStorageRoutes(app, ctx);
  if (ctx.chunkStore) registerChunkStorageRoute(app, ctx, ctx.chunkStore);
  if (parts.distributed) {
    const intake = new ChunkIntake({ executor: parts.distributed, jobs: parts.jobs, chunks: parts.chunks, storage: data.storage, uploadPath: (slug) => data.storage.uploadPath(slug), headroomBytes: parts.headroomBytes });
    const store = ctx.chunkStore;
    const sceneChunks = store ? (scenePath: string) => store.chunksOfUpload(basename(scenePath)) : undefined;
    registerChunkRoutes(app, { signer: parts.signer, keys: parts.distributed.workerKeys, intake, now, logs: parts.logs, ...(sceneChunks ? { sceneChunks } : {}) });
  }
}

/**
 * Listening and closing: on listen, clear what interrupted and abandoned uploads left (then hourly),
 * learn the node's addresses, start the runner and the webhooks; a failed start closes the node again.
 */
function nodeLifecycle(app: FastifyInstance, basis: NodeBasis, parts: NodeParts, drain: RequestDrain): Pick<RenderNode, 'listen' | 'close'> {
  const { options, log, now, data, addresses } = basis;
  let closed = false;
  let cleanupTimer: NodeJS.Timeout | null = null;
  const close = async () => {
    if (closed) return;
    closed = true;
    if (cleanupTimer) clearInterval(cleanupTimer);
    const requests = drain.drain({ graceMs: options.shutdownGraceMs ?? 10_000 }).then((outcome) => {
      if (outcome.stopped > 0) log.warn(outcome, 'stopped requests still running after the shutdown grace period');
    });
    await Promise.all([parts.webhooks.stop(), parts.runner.stop(), requests]);
    parts.logs.close();
    await app.close();
    parts.chunkStore?.close();
    data.db.close();
    data.lock.release();
  };
  const clean = async (everyPartial: boolean) => {
    const cleaned = await cleanUploads(data.db, data.storage, now(), { everyPartial });
    if (cleaned.partial || cleaned.abandoned) log.info(cleaned, 'removed leftovers of interrupted and abandoned uploads');
  };
  const listen = async (host = '127.0.0.1', port = 8787) => {
    await clean(true).catch((err: unknown) => log.warn({ err }, 'upload clean-up failed'));
    await app.listen({ host, port });
    try {
      const address = app.server.address();
      const actualPort = typeof address === 'object' && address ? address.port : port;
      const shownHost = host.includes(':') ? `[${host}]` : host;
      addresses.listenUrl = options.publicUrl ?? `http://${shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost}:${actualPort}`;
      cleanupTimer = setInterval(() => void clean(false).catch((err: unknown) => log.warn({ err }, 'upload clean-up failed')), 3600_000);
      cleanupTimer.unref();
      await parts.runner.start();
      parts.webhooks.start();
      return `http://${shownHost}:${actualPort}`;
    } catch (err) {
      await close().catch((closing: unknown) => log.error({ err: closing }, 'could not stop after a failed start'));
      throw err;
    }
  };
  return { listen, close };
}
