import { InvalidArgumentError, type Command } from 'commander';
import { resolve } from 'node:path';
import { isIP } from 'node:net';
import type { RenderNodeOptions } from '../../render-node/server';
import type { RenderLimits } from '../../render-node/plan';
import { parseByteSize, parseDuration, parsePixelCount } from '../options';
import { WorkerSecretError } from '../../render-node/worker-access';
import { CommandFailedError } from '../cli-errors';
import type { CliDeps } from '../cli-deps';
import { EXIT } from '../exit-codes';
import { parseRedisUrl, redisTarget, registerWorkerCommands, tagsOption, withRedisNamed } from './node-workers';
import { untilStopped } from './until-stopped';
import { registerNodeStatsCommand } from './node-stats';

const DEFAULT_DATA = 'renderdrop-node-data';

/** A limit parser for commander: its message becomes the usage error. */
const limitOption = (parse: (v: string) => number) => (v: string) => {
  try {
    return parse(v);
  } catch (err) {
    throw new InvalidArgumentError(err instanceof Error ? err.message : String(err));
  }
};

/** The limits given on the command line (the node's defaults apply to the others). */
function definedLimits(given: { [K in keyof RenderLimits]: number | undefined }): Partial<RenderLimits> {
  return Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
}

const positiveInt = (name: string) => (v: string) => {
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError(`${name} must be a whole number of at least 1.`);
  return Number(v);
};

/** The options of `node serve`, as commander parses them. */
interface ServeOptions {
  host: string;
  port: number;
  data: string;
  blender?: string;
  publicUrl?: string;
  renders?: number;
  validations: number;
  rateLimit: string;
  maxFrames?: number;
  maxPixels?: number;
  maxSamples?: number;
  jobTimeLimit?: number;
  maxExtracted?: number;
  chunkStoreMax?: number;
  renderTurn?: number;
  webhookUrl?: string;
  webhookSecret?: string;
  redis?: string;
  chunkSize?: number;
  tags?: string[];
  logLevel: string;
  trustPython?: boolean;
}

/** Whether a bind address exposes the node beyond this machine. */
export function isPublicBind(host: string): boolean {
  if (host === 'localhost') return false;
  if (isIP(host) === 4) return !host.startsWith('127.');
  if (isIP(host) === 6) return host !== '::1';
  return true;
}

/** `renderdrop node ...`: serve, worker, keys, doctor, stats. */
export function registerNodeCommands(program: Command, deps: CliDeps): void {
  const node = program.command('node').description('Run and manage a local render node (the Render Job API on top of Blender).');
  registerServeCommand(node, deps);
  registerWorkerCommands(node, deps);
  registerWorkerSecretCommand(node, deps);
  const keys = node.command('keys').description('Manage the API keys of a node.');
  registerKeyCreateCommand(keys, deps);
  registerKeyListCommand(keys, deps);
  registerKeyRevokeCommand(keys, deps);
  registerDoctorCommand(node, deps);
  registerNodeStatsCommand(node, deps, DEFAULT_DATA);
}

const portNumber = (v: string) => {
  if (!/^\d+$/.test(v) || Number(v) > 65535) throw new InvalidArgumentError('--port must be 0-65535.');
  return Number(v);
};

/** `node serve`: the options, then {@link serveNode}. */
function registerServeCommand(node: Command, deps: CliDeps): void {
  node
    .command('serve')
    .description('Serve the Render Job API under /api/external/v1.')
    .option('--host <host>', 'address to bind (127.0.0.1 keeps it on this machine)', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', portNumber, 8787)
    .option('--data <dir>', 'data folder (database, uploads, outputs)', DEFAULT_DATA)
    .option('--blender <path>', 'Blender executable (default: BLENDER_PATH, PATH, usual install folders)')
    .option('--public-url <url>', 'base URL for the links the node hands out (default: the address each request came to)')
    .option('--renders <n>', 'renders at once (default 1; with --redis, jobs whose chunks are queued at once, default 32)', positiveInt('--renders'))
    .option('--validations <n>', 'validations at once', positiveInt('--validations'), 2)
    .option('--rate-limit <spec>', 'requests per key, e.g. 1200/60s', '1200/60s')
    .option('--max-frames <n>', 'frames per job; more is refused (default: 10000)', positiveInt('--max-frames'))
    .option('--max-pixels <size>', 'pixels per frame after the percentage, as WxH or a count; more is refused (default: 8192x8192)', limitOption((v) => parsePixelCount(v, '--max-pixels')))
    .option('--max-samples <n>', 'samples per frame; more is lowered to this (default: 16384)', positiveInt('--max-samples'))
    .option('--job-time-limit <duration>', 'render time per job, e.g. 90m, 7d; past it the job fails (default: 24h)', limitOption((v) => parseDuration(v, '--job-time-limit')))
    .option('--max-extracted <size>', 'bytes a zip may expand to, e.g. 512M (default: 20G)', limitOption((v) => parseByteSize(v, '--max-extracted')))
    .option('--render-turn <duration>', "time a render keeps its slot before giving way, after a frame, to another key's waiting render (default: 60s)", limitOption((v) => parseDuration(v, '--render-turn')))
    .option('--chunk-store-max <size>', "disk the chunks of scenes sent in parts may take, e.g. 50G; the ones used longest ago go first; 0 turns sending in parts off (default: 20G)", limitOption((v) => (v.trim() === '0' ? 0 : parseByteSize(v, '--chunk-store-max'))))
    .option('--webhook-url <url>', 'POST onRenderComplete events here')
    .option('--webhook-secret <secret>', 'HMAC secret for webhook signatures (or RENDERDROP_WEBHOOK_SECRET)')
    .option('--redis <url>', 'render on workers (renderdrop node worker) through Redis: redis://host:6379', parseRedisUrl)
    .option('--chunk-size <n>', 'frames per chunk in distributed mode (default: chosen per job)', positiveInt('--chunk-size'))
    .option('--tags <tags>', "tags of this node's own Blender, e.g. gpu,big-ram: a render that requires others waits (without --redis; workers have their own --tags)", tagsOption)
    .option('--log-level <level>', 'fatal, error, warn, info, debug', 'info')
    .option(
      '--trust-python',
      "run each scene's own Python (drivers' expressions, text blocks registered as modules), as the artist's Blender does. RISK: a scene's Python can do anything this node's user can (read and delete files, reach the network); use it only when everyone who can submit is trusted (default: off, such drivers give 0 and the review says so)",
    )
    .action((opts: ServeOptions) => serveNode(opts, deps));
}

/** Run a node until stopped, warning when it is reachable from other machines or unreachable for workers. */
async function serveNode(opts: ServeOptions, deps: CliDeps): Promise<void> {
  const { stdout, stderr } = deps.io;
  const [{ createLogger }, { createRenderNode }, { workerFacingUrl }] = await Promise.all([
    import('../../render-node/logger'),
    import('../../render-node/server'),
    import('../../render-node/worker-access'),
  ]);
  const log = createLogger({ level: opts.logLevel });
  const host = opts.host;
  if (isPublicBind(host)) {
    log.warn({ host }, 'binding a non-loopback address: anyone who can reach it and holds a key can use this node');
    stderr.write(`warning: ${host} is reachable from other machines; keep your API keys private.\n`);
  }
  if (opts.tags && opts.redis) stderr.write('note: --tags gives the node\'s own Blender tags; with --redis the workers render, each with its own --tags.\n');
  if (opts.trustPython) stderr.write("warning: --trust-python: Blender runs each scene's own Python on this node; only accept scenes from people you trust.\n");
  const node = await withRedisNamed(createRenderNode({ ...(await serveNodeOptions(opts, deps)), logger: log }));
  const url = await node.listen(host, opts.port);
  stdout.write(`listening on ${url}\n`);
  void node.ctx.ffmpeg().then((ffmpeg) => {
    if (ffmpeg) log.info({ ffmpeg: ffmpeg.ffmpeg, version: ffmpeg.version }, 'videos of scenes whose output is a video are made with FFmpeg');
    else log.warn('no FFmpeg found: scenes whose output is a video come back as PNG frames only, and the review says so (install FFmpeg to make their videos)');
  });
  if (opts.redis) stdout.write(`render workers reach this node at ${workerFacingUrl({ publicUrl: opts.publicUrl, host, port: Number(new URL(url).port) })} (their --node)\n`);
  if (opts.redis && !isPublicBind(host) && !opts.publicUrl) {
    stderr.write(`note: render workers on other machines cannot reach a node on ${host}; use --host 0.0.0.0 or --public-url for them.\n`);
  }
  await untilStopped(log, 'shutting down', () => node.close());
}

/** The node's options from `node serve`'s; a webhook URL without a secret is refused. */
async function serveNodeOptions(opts: ServeOptions, deps: CliDeps): Promise<RenderNodeOptions> {
  const { stderr, env } = deps.io;
  const { parseRateLimit } = await import('../../render-node/http');
  const webhookUrl = opts.webhookUrl;
  const webhookSecret = opts.webhookSecret ?? env.RENDERDROP_WEBHOOK_SECRET;
  if (webhookUrl && !webhookSecret) throw new Error('--webhook-url needs a secret: --webhook-secret or RENDERDROP_WEBHOOK_SECRET.');
  const redisUrl = opts.redis;
  const distributed = redisUrl
    ? {
        redis: redisTarget(redisUrl, env, (line) => stderr.write(`${line}\n`)),
        chunkSize: opts.chunkSize ?? null,
        ...(env.RENDERDROP_WORKER_SECRET ? { workerSecret: env.RENDERDROP_WORKER_SECRET } : {}),
      }
    : null;
  return {
    dataDir: resolve(opts.data),
    blenderPath: opts.blender,
    publicUrl: opts.publicUrl,
    concurrency: { ...(opts.renders ? { renders: opts.renders } : {}), validations: opts.validations },
    rateLimit: parseRateLimit(opts.rateLimit),
    limits: definedLimits({
      maxFramesPerJob: opts.maxFrames,
      maxPixelsPerFrame: opts.maxPixels,
      maxSamples: opts.maxSamples,
      jobTimeLimitMs: opts.jobTimeLimit,
      maxExtractedBytes: opts.maxExtracted,
    }),
    renderTurnMs: opts.renderTurn,
    ...(opts.chunkStoreMax !== undefined ? { chunkStoreMaxBytes: opts.chunkStoreMax } : {}),
    webhook: webhookUrl ? { url: webhookUrl, secret: webhookSecret! } : null,
    distributed,
    ...(opts.tags ? { tags: opts.tags } : {}),
    trustPython: opts.trustPython === true,
  };
}

/** `node worker-secret`: make (or with --rotate replace) the secret that node and workers share. */
function registerWorkerSecretCommand(node: Command, deps: CliDeps): void {
  const { stdout } = deps.io;
  node
    .command('worker-secret')
    .description('Create the secret render workers need (node serve --redis); it is printed once, alone on the last line.')
    .option('--data <dir>', 'data folder', DEFAULT_DATA)
    .option('--rotate', 'replace the existing secret (workers need the new one, the node a restart)')
    .action(async (opts: { data: string; rotate?: boolean }) => {
      const rotate = opts.rotate === true;
      const { createWorkerSecretFile } = await import('../../render-node/worker-access');
      const made = await createWorkerSecretFile(resolve(opts.data), rotate).catch((error: unknown) => {
        throw error instanceof WorkerSecretError ? new CommandFailedError(error.message) : error;
      });
      const then = rotate ? ' Restart the node, and give the workers the new secret: the old one no longer works.' : '';
      stdout.write(
        `${rotate ? 'Replaced' : 'Created'} the worker secret in ${made.path} (readable by you only). Give it to each render worker in RENDERDROP_WORKER_SECRET or a file for --secret-file; keep it as private as a password.${then}\n${made.secret}\n`,
      );
    });
}

/** `node keys create`. */
function registerKeyCreateCommand(keys: Command, deps: CliDeps): void {
  const { stdout } = deps.io;
  keys
    .command('create')
    .description('Create an API key; it is printed once, alone on the last line.')
    .requiredOption('--name <label>', 'what the key is for')
    .option('--data <dir>', 'data folder', DEFAULT_DATA)
    .action(async (opts: { name: string; data: string }) => {
      const { openDatabase, createKey } = await import('../../render-node/store');
      const db = openDatabase(resolve(opts.data));
      try {
        const { key, info } = createKey(db, opts.name);
        stdout.write(`Created key ${info.id} (${info.name}). Store it now; it cannot be shown again.\n${key}\n`);
      } finally {
        db.close();
      }
    });
}

/** `node keys list`. */
function registerKeyListCommand(keys: Command, deps: CliDeps): void {
  const { stdout } = deps.io;
  keys
    .command('list')
    .description('List keys (never the keys themselves).')
    .option('--data <dir>', 'data folder', DEFAULT_DATA)
    .option('--json', 'machine-readable output')
    .action(async (opts: { data: string; json?: boolean }) => {
      const { openDatabase, listKeys } = await import('../../render-node/store');
      const db = openDatabase(resolve(opts.data));
      try {
        const all = listKeys(db);
        if (opts.json) return void stdout.write(JSON.stringify(all, null, 2) + '\n');
        if (all.length === 0) return void stdout.write('No keys yet: renderdrop node keys create --name <label>\n');
        for (const k of all) {
          stdout.write(`${k.id}  ${k.prefix}…  ${k.name}  created ${k.createdAt}${k.revokedAt ? `  REVOKED ${k.revokedAt}` : ''}\n`);
        }
      } finally {
        db.close();
      }
    });
}

/** `node keys revoke`. */
function registerKeyRevokeCommand(keys: Command, deps: CliDeps): void {
  const { stdout, stderr } = deps.io;
  keys
    .command('revoke <idOrName>')
    .description('Revoke a key by id (or unique id prefix) or name.')
    .option('--data <dir>', 'data folder', DEFAULT_DATA)
    .action(async (idOrName: string, opts: { data: string }) => {
      const { openDatabase, revokeKey } = await import('../../render-node/store');
      const db = openDatabase(resolve(opts.data));
      try {
        const k = revokeKey(db, idOrName);
        if (!k) {
          stderr.write(`No active key matches "${idOrName}".\n`);
          deps.setExitCode(EXIT.failure);
          return;
        }
        stdout.write(`Revoked ${k.id} (${k.name}).\n`);
      } finally {
        db.close();
      }
    });
}

/** `node doctor`. */
function registerDoctorCommand(node: Command, deps: CliDeps): void {
  const { stdout, env } = deps.io;
  node
    .command('doctor')
    .description('Find Blender and FFmpeg and report what they can do.')
    .option('--blender <path>', 'Blender executable to check')
    .option('--json', 'machine-readable output')
    .action(async (opts: { blender?: string; json?: boolean }) => {
      const { runDoctor, formatDoctorReport } = await import('../../render-node/blender');
      const { findFfmpeg } = await import('../../render-node/video');
      const report = await runDoctor({ explicit: opts.blender, env, platform: process.platform, ffmpeg: () => findFfmpeg({ env }) });
      stdout.write(opts.json ? JSON.stringify(report, null, 2) + '\n' : formatDoctorReport(report) + '\n');
      if (!report.ok) deps.setExitCode(EXIT.failure);
    });
}
