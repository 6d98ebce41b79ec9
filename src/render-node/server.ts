import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { totalmem } from 'node:os';
import type { Logger } from 'pino';
import { metaValue, workspaceId } from './store/db';
import { JobsRepo } from './store/jobs-repo';
import { UploadsRepo } from './store/uploads-repo';
import { UrlSigner } from './http/signing';
import { JobRunner, type BlenderRuntime, DEFAULT_HEADROOM_BYTES } from './jobs/job-runner';
import { createRequestLimiter, type RateLimitSpec } from './http/rate-limit';
import { WebhookDispatcher, type WebhookConfig } from './jobs/webhooks';
import { HttpError, toHttpError, writeClientError } from './http/http-error';
import { keyIdOfUser } from './store/keys';
import { createLogger, redactUrl } from './logger';
import { registerApiRoutes } from './http/api-routes';
import { registerStorageRoutes } from './http/storage-routes';
import { signedJobFileUrl } from './http/job-payload';
import { cleanUploads } from './disk/upload-cleanup';
import { openNodeData } from './store/open-node-data';
import { DEFAULT_RENDER_LIMITS, type RenderLimits } from './plan/render-limits';
import type { NodeContext } from './http/context';
import type { NodeCapabilities } from './plan/render-plan';
import { findBlender } from './blender/locate';
import { probeBlender, type BlenderInfo } from './blender/probe';
import type { NodeWorkers } from '../shared/api';
import { checkRedis } from './distributed/redis-connection';
import { DistributedExecutor, type DistributedOptions } from './distributed/distributed-executor';
import { ChunksRepo } from './distributed/chunks-repo';
import { ChunkIntake } from './distributed/chunk-intake';
import { registerChunkRoutes } from './distributed/chunk-routes';
import { workerFacingUrl } from './distributed/node-address';

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
  /** What one render may ask of the node (defaults: DEFAULT_RENDER_LIMITS). */
  limits?: Partial<RenderLimits>;
  /** Disk space kept free beyond what a step is expected to write (default 16 MiB). */
  headroomBytes?: number;
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
}

/** A running (or ready to listen) render node. */
export interface RenderNode {
  app: FastifyInstance;
  ctx: NodeContext;
  blender: BlenderInfo | null;
  webhooks: WebhookDispatcher;
  /** Listen and start the job runner; resolves to the node's URL. */
  listen(host?: string, port?: number): Promise<string>;
  /** Stop accepting requests and stop work (jobs resume on the next start). */
  close(): Promise<void>;
  /** How the node renders and, in distributed mode, its render workers. */
  workers(): Promise<NodeWorkers>;
}

export const DEFAULT_RATE_LIMIT = { limit: 1200, windowMs: 60_000 };

/** Capabilities for planning from a probed Blender. */
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

/** Find and probe the Blender a node should use; null (with the reason logged) when there is none. */
export async function detectBlender(opts: { blenderPath?: string; env?: NodeJS.ProcessEnv }, log: Logger): Promise<BlenderInfo | null> {
  const found = await findBlender({ explicit: opts.blenderPath, env: opts.env ?? process.env, platform: process.platform });
  if (!found || !('path' in found) || !found.path) {
    log.warn('no Blender found: jobs will fail until one is installed (run `renderdrop node doctor`)');
    return null;
  }
  return probeBlender(found.path, { timeoutMs: 60_000 });
}

/** Build a render node on a data folder: database, storage, routes, job runner, webhooks. */
export async function createRenderNode(options: RenderNodeOptions): Promise<RenderNode> {
  const log = options.logger ?? createLogger({ level: options.logLevel ?? 'info' });
  const now = options.now ?? (() => new Date());
  if (options.distributed) await checkRedis(options.distributed.redis);
  const blender = options.blender !== undefined ? options.blender : await detectBlender(options, log);
  const { lock, db, storage, reserve } = await openNodeData(options.dataDir, now(), options.reserveBytes);
  reserve.ensure();
  const limits: RenderLimits = { ...DEFAULT_RENDER_LIMITS, ...options.limits };
  const headroomBytes = options.headroomBytes ?? DEFAULT_HEADROOM_BYTES;
  const signer = new UrlSigner(Buffer.from(metaValue(db, 'signing_secret', () => randomBytes(32).toString('hex')), 'hex'));
  const runtime: BlenderRuntime | null = blender
    ? { path: blender.path, version: blender.version, openImageDenoise: blender.openImageDenoise, optix: blender.optix, eeveeUsable: blender.eeveeUsable }
    : null;
  const jobs = new JobsRepo(db, now);
  const uploads = new UploadsRepo(db);
  const webhooks = new WebhookDispatcher(db, options.webhook ?? null, log, now);
  const rate = options.rateLimit ?? DEFAULT_RATE_LIMIT;
  let listenUrl = options.publicUrl ?? 'http://127.0.0.1';
  const ws = workspaceId(db);
  const downloadUrlTtlMs = options.downloadUrlTtlMs ?? 6 * 3600_000;
  let workerUrl = listenUrl;
  const chunks = new ChunksRepo(db);
  const distributed = options.distributed
    ? new DistributedExecutor(options.distributed, { workspaceId: ws, jobs, chunks, signer, uploadPath: (slug) => storage.uploadPath(slug), nodeUrl: () => workerUrl, log, now })
    : null;

  const runner = new JobRunner({
    jobs,
    storage,
    log,
    blender: runtime,
    ...(distributed ? { executor: distributed } : {}),
    concurrency: { renders: options.concurrency?.renders ?? (distributed ? 32 : 1), validations: options.concurrency?.validations ?? 2 },
    threads: options.threads ?? null,
    reserve,
    limits,
    headroomBytes,
    renderTurnMs: options.renderTurnMs,
    env: options.env,
    uploadPath: (slug) => storage.uploadPath(slug),
    onCompleted: (job) => {
      const expiresAt = new Date(now().getTime() + downloadUrlTtlMs);
      const base = options.publicUrl ?? listenUrl;
      const keyId = keyIdOfUser(db, job.userId) ?? '';
      const frames = jobs.frames(job.id).map((f) => signedJobFileUrl(signer, base, job.id, `frames/${f.filePath.split(/[\\/]/).pop()}`, expiresAt, keyId));
      webhooks.enqueue({
        event: 'onRenderComplete',
        status: 'completed',
        jobId: job.id,
        workspaceId: ws,
        completedAt: job.completedAt ?? now().toISOString(),
        ...(frames.length ? { outputs: { frames } } : {}),
      });
    },
  });

  const ctx: NodeContext = {
    db,
    log,
    jobs,
    uploads,
    storage,
    signer,
    runner,
    workspaceId: ws,
    capabilities: capabilitiesOf(blender),
    limits,
    headroomBytes,
    uploadUrlTtlMs: options.uploadUrlTtlMs ?? 3600_000,
    downloadUrlTtlMs,
    baseUrl: (request) => options.publicUrl ?? (request ? `${request.protocol}://${request.host}` : listenUrl),
    now,
    workers: async () => (distributed ? distributed.workersView() : { mode: 'embedded', ...runner.settings() }),
  };

  const fastifyLogger: FastifyBaseLogger = log;
  const app = Fastify({
    loggerInstance: fastifyLogger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    forceCloseConnections: true,
    clientErrorHandler: writeClientError,
    frameworkErrors: (err, _request, reply) => {
      const http = toHttpError(err);
      reply.raw.writeHead(http.statusCode, { 'content-type': 'application/json' }).end(JSON.stringify(http.body()));
    },
  });
  app.addHook('onResponse', async (request, reply) => {
    const line = { method: request.method, url: redactUrl(request.url), statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) };
    if (reply.statusCode >= 500) request.log.error(line, 'request failed');
    else request.log.debug(line, 'request');
  });
  app.setErrorHandler((err, request, reply) => {
    const http = toHttpError(err);
    if (http.statusCode >= 500) request.log.error({ err }, 'request failed');
    if (request.method === 'PUT' && !request.raw.readableEnded) reply.header('Connection', 'close');
    reply.code(http.statusCode).headers(http.headers).type('application/json').send(http.body());
  });
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).type('application/json').send(new HttpError(404, 'route_not_found', `No route ${request.method} ${request.url.split('?')[0]}.`).body());
  });
  app.get('/healthz', async () => ({ ok: true, blender: blender?.version ?? null }));
  registerApiRoutes(app, ctx, await createRequestLimiter(app, rate));
  registerStorageRoutes(app, ctx);
  if (distributed) {
    const intake = new ChunkIntake({ executor: distributed, jobs, chunks, storage, uploadPath: (slug) => storage.uploadPath(slug) });
    registerChunkRoutes(app, { signer, intake, now });
  }

  let closed = false;
  let cleanupTimer: NodeJS.Timeout | null = null;
  const close = async () => {
    if (closed) return;
    closed = true;
    if (cleanupTimer) clearInterval(cleanupTimer);
    await Promise.all([webhooks.stop(), runner.stop()]);
    await app.close();
    db.close();
    lock.release();
  };
  return {
    app,
    ctx,
    blender,
    webhooks,
    async listen(host = '127.0.0.1', port = 8787) {
      const clean = async (everyPartial: boolean) => {
        const cleaned = await cleanUploads(db, storage, now(), { everyPartial });
        if (cleaned.partial || cleaned.abandoned) log.info(cleaned, 'removed leftovers of interrupted and abandoned uploads');
      };
      await clean(true).catch((err: unknown) => log.warn({ err }, 'upload clean-up failed'));
      await app.listen({ host, port });
      try {
        const address = app.server.address();
        const actualPort = typeof address === 'object' && address ? address.port : port;
        const shownHost = host.includes(':') ? `[${host}]` : host;
        listenUrl = options.publicUrl ?? `http://${shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost}:${actualPort}`;
        workerUrl = workerFacingUrl({ publicUrl: options.publicUrl, host, port: actualPort });
        cleanupTimer = setInterval(() => void clean(false).catch((err: unknown) => log.warn({ err }, 'upload clean-up failed')), 3600_000);
        cleanupTimer.unref();
        await runner.start();
        webhooks.start();
        return `http://${shownHost}:${actualPort}`;
      } catch (err) {
        await close().catch((closing: unknown) => log.error({ err: closing }, 'could not stop after a failed start'));
        throw err;
      }
    },
    close,
    workers: () => ctx.workers(),
  };
}
