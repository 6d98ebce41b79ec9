import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import send from '@fastify/send';
import Fastify from 'fastify';
import { serveFile } from '../src/render-node/http/serve-file';
import { checkServeFile, refuseImpossible, type ServeFileFigures } from './lib/checks';
import { onCleanup, runBench } from './lib/cleanup';
import { intOption, sizeOption } from './lib/options';
import { median, writeResults } from './lib/report';

/**
 * The node's hand-written file serving (src/render-node/http/serve-file.ts: ETag, Range, If-Range) against
 * @fastify/send (same 1 MiB read buffer) on the same Fastify, each downloaded by one curl process fetching every file, whole and
 * as ranges. Prints the time of each and the ratio hand-written / send (below 1: hand-written faster).
 */
const files = intOption('files', 200);
const fileSize = sizeOption('file-size', '1M');
const runs = intOption('runs', 3);

type Fetch = ServeFileFigures['fetches'][number];

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'rd-bench-serve-'));
  onCleanup(() => rm(dir, { recursive: true, force: true }));
  const block = randomBytes(fileSize);
  for (let i = 0; i < files; i++) await writeFile(join(dir, `frame_${String(i).padStart(4, '0')}.png`), block);

  const app = Fastify();
  const seen = { requests: 0, statuses: new Map<number, number>() };
  app.addHook('onRequest', async () => {
    seen.requests++;
  });
  app.addHook('onResponse', async (_request, reply) => {
    seen.statuses.set(reply.statusCode, (seen.statuses.get(reply.statusCode) ?? 0) + 1);
  });
  app.get<{ Params: { name: string } }>('/hand/:name', async (request, reply) => {
    await serveFile(request, reply, join(dir, request.params.name));
    return reply;
  });
  app.get<{ Params: { name: string } }>('/send/:name', async (request, reply) => {
    const result = await send(request.raw, request.params.name, { root: dir, etag: true, highWaterMark: 1024 * 1024 });
    return reply.code(result.statusCode).headers(result.headers).send(result.stream);
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  onCleanup(() => app.close());

  /** One curl fetching every file from a route (the server runs in this process, so curl runs beside it). */
  const fetchAll = async (route: string, range: boolean): Promise<Fetch> => {
    const args = ['-s', '--fail', ...(range ? ['-r', `${Math.floor(fileSize / 2)}-`] : [])];
    for (let i = 0; i < files; i++) args.push('-o', '/dev/null', `${base}/${route}/frame_${String(i).padStart(4, '0')}.png`);
    seen.requests = 0;
    seen.statuses.clear();
    const started = process.hrtime.bigint();
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn('curl', args, { stdio: 'ignore' });
      child.on('error', reject);
      child.on('close', resolve);
    });
    if (code !== 0) throw new Error(`curl failed on /${route} (exit ${code})`);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { route, range, seconds, requests: seen.requests, answered: seen.statuses.get(range ? 206 : 200) ?? 0 };
  };

  console.log(`serve-file: ${files} files of ${fileSize} bytes, ${runs} runs, one curl per run`);
  const fetches: Fetch[] = [];
  for (const range of [false, true]) {
    await fetchAll('hand', range);
    await fetchAll('send', range);
    const mine: Fetch[] = [];
    for (let r = 0; r < runs; r++) {
      mine.push(await fetchAll('hand', range));
      mine.push(await fetchAll('send', range));
    }
    refuseImpossible('serve-file', checkServeFile({ files, fetches: mine }));
    fetches.push(...mine);
    const h = median(mine.filter((f) => f.route === 'hand').map((f) => f.seconds));
    const s = median(mine.filter((f) => f.route === 'send').map((f) => f.seconds));
    console.log(`${range ? 'second half (Range)' : 'whole files        '}  hand-written ${h.toFixed(3)} s  @fastify/send ${s.toFixed(3)} s  ratio ${(h / s).toFixed(2)}`);
  }
  await writeResults('serve-file', { config: { files, fileSize, runs }, fetches });
}

await runBench(main);
