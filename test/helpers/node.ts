import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import pino from 'pino';
import { createRenderNode, type RenderNode, type RenderNodeOptions } from '../../src/render-node/server';
import { createKey } from '../../src/render-node/store/keys';
import { TEST_WORKER_SECRET } from './worker-secret';

/** A render node listening on 127.0.0.1 with a fresh data folder and one API key. */
export interface TestNode {
  node: RenderNode;
  url: string;
  api: string;
  key: string;
  dataDir: string;
  /** Everything the node logged, as text. */
  logs: () => string;
  /** Call the API with the node's key: method, path under /api/external/v1, optional JSON body. */
  call: (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; headers: Headers; json: any }>;
  stop: () => Promise<void>;
}

/**
 * Start a node for a test. Pass `blender: null` for a node without Blender. A distributed node gets
 * the test workers' secret (TEST_WORKER_SECRET) unless `distributed.workerSecret` says otherwise.
 */
export async function startTestNode(given: Partial<RenderNodeOptions> & { dataDir?: string } = {}): Promise<TestNode> {
  const options = given.distributed ? { ...given, distributed: { workerSecret: TEST_WORKER_SECRET, ...given.distributed } } : given;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'rd-node-')));
  const sink = new PassThrough();
  const chunks: string[] = [];
  sink.on('data', (c: Buffer) => chunks.push(c.toString()));
  const logger = pino({ level: 'debug' }, sink);
  const node = await createRenderNode({ logger, ...options, dataDir });
  const { key } = createKey(node.ctx.db, 'test');
  const url = await node.listen('127.0.0.1', 0);
  const api = `${url}/api/external/v1`;
  const call: TestNode['call'] = async (method, path, body, headers = {}) => {
    const res = await fetch(api + path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return { status: res.status, headers: res.headers, json };
  };
  return {
    node,
    url,
    api,
    key,
    dataDir,
    logs: () => chunks.join(''),
    call,
    stop: async () => {
      await node.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Upload bytes through the API and the presigned PUT; returns the slug. */
export async function uploadBytes(t: TestNode, fileName: string, bytes: Buffer): Promise<string> {
  const fileType = fileName.toLowerCase().endsWith('.zip') ? 'zip' : 'blend';
  const target = await t.call('POST', '/uploads', { fileName, fileType });
  if (target.status !== 201) throw new Error(`POST /uploads: ${target.status} ${JSON.stringify(target.json)}`);
  const put = await fetch(target.json.uploadUrl, {
    method: 'PUT',
    headers: { 'content-type': fileType === 'zip' ? 'application/zip' : 'application/octet-stream', 'content-length': String(bytes.length) },
    body: bytes,
  });
  if (put.status !== 200) throw new Error(`PUT upload: ${put.status} ${await put.text()}`);
  return target.json.slug as string;
}

/** Poll a job until `predicate` holds (or the time runs out). */
export async function waitForJob(t: TestNode, id: string, predicate: (job: any) => boolean, timeoutMs = 120_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let last: any = null;
  while (Date.now() < deadline) {
    const res = await t.call('GET', `/jobs/${id}`);
    last = res.json?.data;
    if (last && predicate(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${id} did not reach the expected state; last: ${JSON.stringify(last?.status)} ${JSON.stringify(last?.failedReason)}`);
}

/** Upload a scene, create its job, validate it and start its render with `config`; returns the job id. */
export async function startRenderJob(t: TestNode, fileName: string, scene: Buffer, config: Record<string, unknown>): Promise<string> {
  const slug = await uploadBytes(t, fileName, scene);
  const job = (await t.call('POST', '/jobs', { slug })).json;
  await t.call('POST', `/jobs/${job.id}/validate`);
  const validated = await waitForJob(t, job.id, (j) => j.status !== 'validating');
  if (validated.status !== 'validated') throw new Error(`validation ended ${validated.status}: ${JSON.stringify(validated.failedReason)}`);
  const res = await t.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', ...config } });
  if (res.status !== 200) throw new Error(`render request: ${res.status} ${JSON.stringify(res.json)}`);
  return job.id as string;
}
