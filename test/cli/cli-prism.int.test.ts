import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeBlender } from '../../src/render-node/blender/probe';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { runCli } from '../helpers/cli';
import { HostileServer, sendJson } from '../helpers/hostile-server';
import { startTestNode, type TestNode } from '../helpers/node';
import { OPENAPI_PATH } from '../helpers/openapi';
import { requirePrism, startPrismProxy, type PrismProxy } from '../helpers/prism';
import { cliSetup, filesUnder, parseSubmissions, type CliSetup } from './helpers/cli-setup';
import { spawnCli, until } from './helpers/spawn-cli';

const blenderPath = requireBlender();
const prismReady = requirePrism();

/**
 * Prism (`prism proxy docs/openapi.yaml <node> --errors`) stands between the CLI and the real node and
 * checks every API request the CLI sends and every answer the node gives against the document. The
 * presigned PUT and the signed downloads do not pass through it: the node signs them for its own
 * address (Prism forwards with the node's Host), as object storage would be reached directly; their
 * answers are checked against the document's /storage paths by test/render-node/openapi.test.ts.
 */
describe.skipIf(!blenderPath || !prismReady)('renderdrop through Prism validating docs/openapi.yaml in front of the real node', () => {
  let t: TestNode;
  let prism: PrismProxy;
  let cli: CliSetup;
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-prism-'));
    t = await startTestNode({ blender: await probeBlender(blenderPath!, { timeoutMs: 60_000 }) });
    prism = await startPrismProxy(OPENAPI_PATH, t.url);
    cli = await cliSetup(prism.url, t.key);
  });
  afterAll(async () => {
    await prism?.stop();
    await t?.stop();
  });

  it('submit --wait --download, status, jobs, download, verify --fix, watch and cancel send and get nothing the document does not allow', async () => {
    const sample = await makeSampleScene(work, {});
    const out = join(work, 'out');
    const submitted = await runCli(['submit', sample, '--yes', '--wait', '--download', out, '--json'], { env: cli.env, timeoutMs: 150_000 });
    expect(submitted.code, submitted.stderr).toBe(0);
    const [result] = parseSubmissions(submitted.stdout);
    expect(result).toMatchObject({ state: 'downloaded', jobStatus: 'completed', downloadedFiles: 3 });
    expect(await filesUnder(result.downloadedTo)).toEqual(['sample_0001.png', 'sample_0002.png', 'sample_0003.png']);

    for (const args of [['status', result.jobId], ['status', result.jobId.slice(0, 8), '--json'], ['jobs'], ['jobs', '--json', '--status', 'completed'], ['download', result.jobId, '--dir', join(work, 'again')], ['verify', result.jobId, '--json']]) {
      const run = await runCli(args, { env: cli.env, timeoutMs: 60_000 });
      expect(run.code, `renderdrop ${args.join(' ')}\n${run.stdout}${run.stderr}`).toBe(0);
    }

    await rm(join(result.downloadedTo, 'sample_0002.png'));
    const fixed = await runCli(['verify', result.jobId, '--fix', '--json'], { env: cli.env, timeoutMs: 150_000 });
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(await filesUnder(result.downloadedTo)).toEqual(['sample_0001.png', 'sample_0002.png', 'sample_0003.png']);

    const slow = await makeSampleScene(join(work, 'slow'), { frames: 240, name: 'slow.blend' });
    const started = await runCli(['submit', slow, '--yes', '--json', '--samples', '16', '--percentage', '200'], { env: cli.env, timeoutMs: 120_000 });
    expect(started.code, started.stderr).toBe(0);
    const [other] = parseSubmissions(started.stdout);
    const watch = spawnCli(['watch', '--json'], cli.env);
    await until('a progress line', () => /"type":"progress"/.test(watch.stdout()), 90_000);
    const cancel = await runCli(['cancel', other.jobId], { env: cli.env });
    expect(cancel.code, cancel.stderr).toBe(0);
    const watched = await watch.exited;
    expect(watched.code, watched.stderr).toBe(3);
    expect(watched.stdout).toContain(`"jobId":"${other.jobId}","status":"canceled"`);

    const log = prism.log();
    // The node takes chunked uploads, so the scenes travel in chunks (their batches go to signed /storage URLs, past Prism).
    for (const operation of ['get /api/external/v1/node/chunked-uploads', 'post /api/external/v1/node/chunked-uploads', 'post /api/external/v1/jobs', 'get /api/external/v1/jobs/progress', 'get /api/external/v1/jobs', `post /api/external/v1/jobs/${other.jobId}/cancel`]) {
      expect(log, `Prism saw ${operation}`).toContain(`[HTTP SERVER] ${operation} `);
    }
    expect(log).toMatch(new RegExp(`post /api/external/v1/jobs/${result.jobId}/validate `));
    expect(log).toMatch(new RegExp(`get /api/external/v1/jobs/${result.jobId}/downloads `));
    expect(log).not.toMatch(/\[HTTP SERVER\] \w+ \/storage\//);
    expect(prism.violations()).toEqual([]);
  });

  it('reports a request that breaks the document, so the check above can fail', async () => {
    const before = prism.violations().length;
    const res = await fetch(`${prism.url}/api/external/v1/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ fileName: 3, fileType: 'blend' }),
    });
    expect(res.status).toBe(422);
    await until('Prism to log it', () => prism.violations().length > before, 10_000);
    expect(prism.violations().slice(before)).toEqual([
      expect.objectContaining({ logger: 'HTTP SERVER', request: 'post /api/external/v1/uploads', level: 'error', message: expect.stringContaining('UNPROCESSABLE_ENTITY') }),
    ]);
  });
});

describe.skipIf(!prismReady)('Prism in front of a server whose answers break the document', () => {
  let server: HostileServer;
  let prism: PrismProxy;

  beforeAll(async () => {
    server = await HostileServer.start();
    server.route('GET', '/api/external/v1/jobs', (_req, res) => sendJson(res, 200, { jobs: 'all of them', pagination: { page: 1 } }));
    prism = await startPrismProxy(OPENAPI_PATH, server.url);
  });
  afterAll(async () => {
    await prism?.stop();
    await server?.close();
  });

  it('reports the answer, so a node answer that breaks the document fails the run above', async () => {
    const res = await fetch(`${prism.url}/api/external/v1/jobs`, { headers: { authorization: 'Bearer RJ-any-key' } });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { validation: { location: string[] }[] }).validation.map((v) => v.location.join('.'))).toContain('response.body.jobs');
    await until('Prism to log it', () => prism.violations().length > 0, 10_000);
    expect(prism.violations()).toEqual([expect.objectContaining({ request: 'get /api/external/v1/jobs', message: expect.stringContaining('VIOLATIONS') })]);
  });
});
