import { InvalidArgumentError, type Command } from 'commander';
import { homedir, hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { NotFoundError } from '../../core/errors';
import { checkRedis, checkRedisUrl, redactRedisUrl, RedisUnavailableError, urlHasPassword, type RedisTarget } from '../../render-node/distributed';
import { createLogger } from '../../render-node/logger';
import { detectBlender } from '../../render-node/server';
import { startRenderWorker } from '../../render-node/worker';
import { CommandFailedError } from '../cli-errors';
import { formatWorkers } from '../output/format-workers';
import type { CliDeps } from '../cli-deps';
import { cliAction } from '../session/cli-action';
import { untilStopped } from './until-stopped';

/** Redis not answering is the person's to fix: say so in the command's own words, not as an unexpected error. */
export async function withRedisNamed<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof RedisUnavailableError) throw new CommandFailedError(error.message);
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

const threadsOption = (v: string) => {
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 1024) throw new InvalidArgumentError('--threads must be a whole number from 1 to 1024.');
  return Number(v);
};

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
    .option('--name <name>', 'name in the node\'s worker list and in failure reasons (default: this computer\'s name)')
    .option('--threads <n>', 'Blender threads per render (default: all cores)', threadsOption)
    .option('--blender <path>', 'Blender executable (default: BLENDER_PATH, PATH, usual install folders)')
    .option('--cache <dir>', 'where scenes are kept between chunks (default: ~/.cache/renderdrop/worker)')
    .option('--log-level <level>', 'fatal, error, warn, info, debug', 'info')
    .action(async (opts: { redis: string; name?: string; threads?: number; blender?: string; cache?: string; logLevel: string }) => {
      const log = createLogger({ level: opts.logLevel });
      const redis = redisTarget(opts.redis, env, (line) => stderr.write(`${line}\n`));
      await withRedisNamed(checkRedis(redis));
      const blender = await detectBlender({ blenderPath: opts.blender, env }, log);
      if (!blender) throw new CommandFailedError('No Blender found on this machine: install Blender, or point --blender or BLENDER_PATH at it.');
      const name = (opts.name ?? hostname()).trim() || 'worker';
      const worker = await withRedisNamed(startRenderWorker({
        redis,
        name,
        blender,
        threads: opts.threads ?? null,
        cacheDir: resolve(opts.cache ?? defaultWorkerCache(env)),
        log,
      }));
      stdout.write(`worker ${name} (Blender ${blender.version}, ${blender.cyclesDevices.join(', ')}) takes chunks from ${redactRedisUrl(redis.url)}\n`);
      await untilStopped(log, 'worker stopping; a chunk in progress goes back to the queue', () => worker.close());
    });

  node
    .command('workers')
    .description('List the render workers of the active profile\'s node: name, host, Blender, devices, what each is doing.')
    .option('--json', 'machine-readable output')
    .action(
      cliAction(deps, async (ctx, opts: { json?: boolean }) => {
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
