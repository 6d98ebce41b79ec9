import { InvalidArgumentError, type Command } from 'commander';
import { readFile, stat } from 'node:fs/promises';
import { homedir, hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { NotFoundError } from '../../core/errors';
import { parseTags } from '../../shared/worker-tags';
import { checkNodeUrl, checkRedisUrl, parseWorkerSecret, redactRedisUrl, RedisUnavailableError, urlHasPassword, WorkerSecretError, type RedisTarget } from '../../render-node/worker-access';
import { ensurePrivateFolder, FolderNotPrivateError } from '../../node-common/private-folder';
import { CommandFailedError } from '../cli-errors';
import type { CliDeps } from '../cli-deps';
import { cliAction } from '../session';
import { untilStopped } from './until-stopped';

/** Redis not answering, or a missing worker secret, is the person's to fix: say so in one line, not as an unexpected error. */
export async function withRedisNamed<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof RedisUnavailableError || error instanceof WorkerSecretError) throw new CommandFailedError(error.message);
    throw error;
  }
}

/** Check a `--redis` URL as commander parses it. */
export function parseRedisUrl(url: string): string {
  const problem = checkRedisUrl(url);
  if (problem) throw new InvalidArgumentError(problem);
  return url;
}

/**
 * The Redis of a command: the URL, with the password from RENDERDROP_REDIS_PASSWORD when set. A
 * password written in the URL is on the command line, where other users of the machine can read it:
 * say so.
 */
export function redisTarget(url: string, env: NodeJS.ProcessEnv, warn: (line: string) => void): RedisTarget {
  if (urlHasPassword(url)) warn('warning: the Redis password on the command line is visible to other users of this machine; put it in RENDERDROP_REDIS_PASSWORD instead.');
  const password = env.RENDERDROP_REDIS_PASSWORD;
  return { url, ...(password ? { password } : {}) };
}

/** Check `--tags` as commander parses it: `gpu,big-ram` becomes `['gpu', 'big-ram']`. */
export function tagsOption(v: string): string[] {
  const parsed = parseTags(v);
  if (!parsed.ok) throw new InvalidArgumentError(parsed.error);
  return parsed.tags;
}

/** A worker's tags: `--tags`, else RENDERDROP_WORKER_TAGS (for a service's environment file), else none. */
function workerTags(given: string[] | undefined, env: NodeJS.ProcessEnv): string[] {
  if (given) return given;
  const parsed = parseTags(env.RENDERDROP_WORKER_TAGS ?? '');
  if (!parsed.ok) throw new CommandFailedError(`RENDERDROP_WORKER_TAGS: ${parsed.error}`);
  return parsed.tags;
}

const threadsOption = (v: string) => {
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 1024) throw new InvalidArgumentError('--threads must be a whole number from 1 to 1024.');
  return Number(v);
};

/** The node's address for a worker: `--node`, else RENDERDROP_NODE_URL. */
function workerNodeUrl(given: string | undefined, env: NodeJS.ProcessEnv): string {
  const url = given ?? env.RENDERDROP_NODE_URL;
  if (!url) throw new CommandFailedError("The worker needs the node's address: --node http://host:8787 or RENDERDROP_NODE_URL.");
  const problem = checkNodeUrl(url);
  if (problem) throw new CommandFailedError(problem);
  return url.replace(/\/+$/, '');
}

/**
 * The worker secret: from `--secret-file` (a file others cannot read: a warning says so otherwise),
 * else RENDERDROP_WORKER_SECRET; never from the command line, where every user of the machine sees it.
 */
async function workerSecret(file: string | undefined, env: NodeJS.ProcessEnv, warn: (line: string) => void): Promise<string> {
  try {
    if (file) {
      const text = await readFile(file, 'utf8').catch(() => {
        throw new WorkerSecretError(`The worker secret file ${file} cannot be read.`);
      });
      if (process.platform !== 'win32' && ((await stat(file)).mode & 0o077) !== 0) warn(`warning: ${file} can be read by other users of this machine; make it private (chmod 600).`);
      return parseWorkerSecret(text, file);
    }
    const secret = env.RENDERDROP_WORKER_SECRET;
    if (!secret) throw new WorkerSecretError("The worker needs the node's worker secret: set RENDERDROP_WORKER_SECRET, or give a file holding it with --secret-file.");
    return parseWorkerSecret(secret, 'RENDERDROP_WORKER_SECRET');
  } catch (error) {
    if (error instanceof WorkerSecretError) throw new CommandFailedError(error.message);
    throw error;
  }
}

/**
 * The worker's cache, made 0700 (it holds the scenes it renders), or made private again in one line
 * when other users could read it; one that cannot be made private stops the worker in one line.
 */
function privateCache(dir: string, say: (line: string) => void): string {
  try {
    const repaired = ensurePrivateFolder(dir, 'worker cache');
    if (repaired) say(`renderdrop: ${repaired}`);
    return dir;
  } catch (error) {
    if (error instanceof FolderNotPrivateError) throw new CommandFailedError(`${error.message} The worker did not start.`);
    throw error;
  }
}

/** The cache a worker keeps scenes in by default: `~/.cache/renderdrop/worker` (XDG_CACHE_HOME honoured). */
export function defaultWorkerCache(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'renderdrop', 'worker');
}

/** `renderdrop node worker` and `renderdrop node workers`. */
export function registerWorkerCommands(node: Command, deps: CliDeps): void {
  const { stdout, stderr, env } = deps.io;
  node
    .command('worker')
    .description('Render frame chunks for a node in distributed mode (node serve --redis), with this machine\'s Blender.')
    .requiredOption('--redis <url>', 'the Redis the node uses: redis://host:6379 (password: RENDERDROP_REDIS_PASSWORD)', parseRedisUrl)
    .option('--node <url>', "the node's address, e.g. http://10.0.0.5:8787 (or RENDERDROP_NODE_URL)")
    .option('--secret-file <path>', "file holding the node's worker secret (or RENDERDROP_WORKER_SECRET)")
    .option('--name <name>', 'name in the node\'s worker list and in failure reasons (default: this computer\'s name)')
    .option('--tags <tags>', 'tags this worker carries, e.g. gpu,big-ram: jobs that require tags render only on workers with all of them (or RENDERDROP_WORKER_TAGS)', tagsOption)
    .option('--threads <n>', 'Blender threads per render (default: all cores)', threadsOption)
    .option('--blender <path>', 'Blender executable (default: BLENDER_PATH, PATH, usual install folders)')
    .option('--cache <dir>', 'where scenes are kept between chunks (default: ~/.cache/renderdrop/worker)')
    .option('--log-level <level>', 'fatal, error, warn, info, debug', 'info')
    .action(async (opts: { redis: string; node?: string; secretFile?: string; name?: string; tags?: string[]; threads?: number; blender?: string; cache?: string; logLevel: string }) => {
      const [{ createLogger }, { detectBlender }, { startRenderWorker, checkRedis }] = await Promise.all([
        import('../../render-node/logger'),
        import('../../render-node/server'),
        import('../../render-node/worker'),
      ]);
      const log = createLogger({ level: opts.logLevel });
      const nodeUrl = workerNodeUrl(opts.node, env);
      const secret = await workerSecret(opts.secretFile, env, (line) => stderr.write(`${line}\n`));
      const redis = redisTarget(opts.redis, env, (line) => stderr.write(`${line}\n`));
      await withRedisNamed(checkRedis(redis));
      const blender = await detectBlender({ blenderPath: opts.blender, env }, log);
      if (!blender) throw new CommandFailedError('No Blender found on this machine: install Blender, or point --blender or BLENDER_PATH at it.');
      const name = (opts.name ?? hostname()).trim() || 'worker';
      const tags = workerTags(opts.tags, env);
      const cacheDir = privateCache(resolve(opts.cache ?? defaultWorkerCache(env)), (line) => stderr.write(`${line}\n`));
      const worker = await withRedisNamed(startRenderWorker({
        redis,
        nodeUrl,
        secret,
        name,
        tags,
        blender,
        threads: opts.threads ?? null,
        cacheDir,
        log,
      }));
      const eevee = blender.eeveeUsable === false ? ', no EEVEE' : '';
      const tagged = tags.length ? `, tagged ${tags.join(', ')}` : '';
      stdout.write(`worker ${name} (Blender ${blender.version}, ${blender.cyclesDevices.join(', ')}${eevee}${tagged}) takes chunks from ${redactRedisUrl(redis.url)} for the node at ${nodeUrl}\n`);
      await untilStopped(log, 'worker stopping; a chunk in progress goes back to the queue', () => worker.close());
    });

  node
    .command('workers')
    .description('List the render workers of the active profile\'s node: name, host, Blender, devices, what each is doing.')
    .option('--json', 'machine-readable output')
    .action(
      cliAction(deps, async (ctx, opts: { json?: boolean }) => {
        const { formatWorkers } = await import('../output');
        const client = await ctx.client();
        const interrupt = deps.listenForInterrupt();
        try {
          const view = await client.getNodeWorkers({ signal: interrupt.signal }).catch((error: unknown) => {
            if (error instanceof NotFoundError) throw new CommandFailedError(`${client.baseUrl} does not list render workers: it is not a Renderdrop node, or an older one.`);
            throw error;
          });
          ctx.io.stdout.write(opts.json ? `${JSON.stringify(view, null, 2)}\n` : `${formatWorkers(view).join('\n')}\n`);
        } finally {
          interrupt.dispose();
        }
      }),
    );
}
