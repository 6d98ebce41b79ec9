import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { CHUNK_QUEUE, REDIS_PREFIX, type ChunkData } from '../../src/render-node/distributed/protocol';
import { ROOT } from './cli';
import { TEST_WORKER_SECRET } from './worker-secret';

export { TEST_WORKER_SECRET };

/** A `renderdrop node worker` process started from source for a test. */
export interface WorkerProcess {
  child: ChildProcess;
  name: string;
  cacheDir: string;
  output: () => string;
  /** Resolves when the process has exited. */
  exited: Promise<number | null>;
}

/**
 * Start `renderdrop node worker` for the node at `node` and wait until it takes chunks. The worker
 * secret is {@link TEST_WORKER_SECRET} in RENDERDROP_WORKER_SECRET unless `env` sets another.
 */
export function startWorkerProcess(options: { redis: string; node: string; name: string; cacheDir: string; blender: string; threads?: number; tags?: string[]; env?: NodeJS.ProcessEnv }): Promise<WorkerProcess> {
  const args = ['node', 'worker', '--redis', options.redis, '--node', options.node, '--name', options.name, '--cache', options.cacheDir, '--blender', options.blender];
  if (options.threads) args.push('--threads', String(options.threads));
  if (options.tags) args.push('--tags', options.tags.join(','));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/run.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, RENDERDROP_WORKER_SECRET: TEST_WORKER_SECRET, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const timer = setTimeout(() => reject(new Error(`worker ${options.name} did not start:\n${out}`)), 90_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (/takes chunks from/.test(out)) {
        clearTimeout(timer);
        resolve({ child, name: options.name, cacheDir: options.cacheDir, output: () => out, exited });
      }
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`worker ${options.name} exited with ${code}:\n${out}`));
    });
  });
}

/** Stop a worker process politely (SIGTERM) and wait for it. */
export async function stopWorker(worker: WorkerProcess): Promise<void> {
  if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGTERM');
  await worker.exited;
}

/** Process ids of running Blender processes (by their executable's name) whose command line mentions `marker`. */
export async function blenderProcesses(marker: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmd = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    const executable = basename(cmd.split('\0')[0] ?? '');
    if (/blender/i.test(executable) && cmd.includes(marker) && state !== 'Z') pids.push(Number(entry));
  }
  return pids;
}

/**
 * The chunks of a job that workers finished, as BullMQ keeps them (data and return value). A job
 * completes when its last frame counts, and the worker marks that chunk done only after its Blender
 * has exited, so chunks still active are waited for (up to `waitMs`).
 */
export async function completedChunks(redisUrl: string, jobId: string, waitMs = 20_000): Promise<{ data: ChunkData; returnvalue: any }[]> {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(CHUNK_QUEUE, { connection, prefix: REDIS_PREFIX });
  try {
    const deadline = Date.now() + waitMs;
    while (Date.now() < deadline && (await queue.getJobs(['active'])).some((j) => j.data.jobId === jobId)) await new Promise((r) => setTimeout(r, 100));
    return (await queue.getJobs(['completed'])).filter((j) => j.data.jobId === jobId).map((j) => ({ data: j.data as ChunkData, returnvalue: j.returnvalue }));
  } finally {
    await queue.close();
    connection.disconnect();
  }
}
