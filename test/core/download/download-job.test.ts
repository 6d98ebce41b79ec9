import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Downloads } from '../../../src/shared/api/downloads';
import type { Job } from '../../../src/shared/api/job';
import { downloadJobOutputs } from '../../../src/core/download/download-job';
import type { DownloadProgress } from '../../../src/core/download/download-tally';
import { AbortError } from '../../../src/core/errors';
import { FakeTime } from '../../helpers/fake-time';
import { HostileServer, failWith, serveFile } from '../../helpers/hostile-server';
import { tempDir } from '../../helpers/scene-files';
import { untilFileHolds } from '../../helpers/until-file-holds';

const JOB_ID = '0b8f6f4e-1a2b-4c3d-8e9f-001122334455';
let server: HostileServer;
let dir: string;
let time: FakeTime;
let downloadsCalls: number;
let generation: number;
let files: Map<string, Buffer>;

function downloads(): Downloads {
  const tag = `g${generation}`;
  return {
    frames: [...files.keys()].map((name) => `${server.url}/${tag}/${name}`),
    compositeNodes: [],
    frameOutputs: [...files.keys()].map((name) => ({ url: `${server.url}/${tag}/${name}`, fileName: name, relativePath: 'frames', view: null, legacy: false, compositeNodeName: null })),
    compositeNodeOutputs: [],
    transforms: {},
  };
}

const client = {
  getDownloads: async () => {
    downloadsCalls++;
    return downloads();
  },
  getJob: async () => ({ id: JOB_ID, status: 'completed', workspaceId: 'w', createdAt: '', updatedAt: '', sceneFile: { fileName: 'Shot.blend' } }) as Job,
};

beforeEach(async () => {
  server = await HostileServer.start();
  dir = await tempDir();
  time = new FakeTime();
  downloadsCalls = 0;
  generation = 1;
  files = new Map();
  for (let i = 1; i <= 12; i++) files.set(`${String(i).padStart(4, '0')}.png`, randomBytes(50_000 + i));
  server.route('GET', /^\/g1\//, (req, res) => serveFile(files.get(req.url!.split('/').pop()!)!)(req, res));
});
afterEach(() => server.close());

async function listing(folder: string): Promise<string[]> {
  return (await readdir(folder)).sort();
}

describe('downloadJobOutputs', () => {
  it('downloads every output under its original name into <root>/<scene>-<short id>/', async () => {
    const events: DownloadProgress[] = [];
    const result = await downloadJobOutputs({ client, jobId: JOB_ID, downloadRoot: dir, onProgress: (p) => events.push(p), concurrency: 4 });
    expect(result.dir).toBe(join(dir, 'Shot-0b8f6f4e'));
    expect(await listing(join(result.dir, 'frames'))).toEqual([...files.keys()].sort());
    for (const [name, content] of files) expect((await readFile(join(result.dir, 'frames', name))).equals(content)).toBe(true);
    expect(events.at(-1)).toMatchObject({ filesDone: 12, filesTotal: 12, done: true, bytes: result.bytes });
  });

  it('resumes with Range after connections are cut mid-file', async () => {
    const name = '0001.png';
    const content = files.get(name)!;
    const part = join(dir, 'out', 'frames', `${name}.part`);
    server.next('GET', `/g1/${name}`, serveFile(content, { cutAfter: 20_000, cutWhen: () => untilFileHolds(part, 20_000) }));
    server.next('GET', `/g1/${name}`, serveFile(content, { cutAfter: 10_000, cutWhen: () => untilFileHolds(part, 30_000) }));
    const events: DownloadProgress[] = [];
    const result = await downloadJobOutputs({ client, jobId: JOB_ID, dir: join(dir, 'out'), sleep: time.sleep, clock: time, onProgress: (p) => events.push(p) });
    expect((await readFile(join(result.dir, 'frames', name))).equals(content)).toBe(true);
    const total = [...files.values()].reduce((sum, f) => sum + f.length, 0);
    expect(Math.max(...events.map((e) => e.bytesKnown))).toBe(total);
    expect(events.at(-1)).toMatchObject({ bytes: total, bytesKnown: total, done: true });
    const gets = server.requestsTo('GET', `/g1/${name}`);
    expect(gets).toHaveLength(3);
    expect(gets[0]!.headers.range).toBeUndefined();
    expect(gets[1]!.headers.range).toBe('bytes=20000-');
    expect(gets[1]!.headers['if-range']).toBe('"v1"');
    expect(gets[2]!.headers.range).toBe('bytes=30000-');
    expect(await listing(join(result.dir, 'frames'))).not.toContain(`${name}.part`);
  });

  it('resumes a .part left by an earlier run and skips complete files', async () => {
    const out = join(dir, 'out');
    await mkdir(join(out, 'frames'), { recursive: true });
    const [first, second] = [...files.keys()];
    await writeFile(join(out, 'frames', first!), files.get(first!)!);
    await writeFile(join(out, 'frames', `${second}.part`), files.get(second!)!.subarray(0, 1234));
    const events: DownloadProgress[] = [];
    const result = await downloadJobOutputs({ client, jobId: JOB_ID, dir: out, onProgress: (p) => events.push(p) });
    expect(result.files.find((f) => f.relativePath.endsWith(first!))!.skipped).toBe(true);
    expect(events.at(-1)!.bytesKnown).toBe([...files.values()].reduce((sum, f) => sum + f.length, 0));
    expect(server.requestsTo('GET', `/g1/${first}`).map((r) => r.headers.range)).toEqual(['bytes=0-0']);
    expect(server.requestsTo('GET', `/g1/${second}`).map((r) => r.headers.range)).toEqual(['bytes=1234-']);
    expect((await readFile(join(out, 'frames', second!))).equals(files.get(second!)!)).toBe(true);
  });

  it('replaces a complete-looking file of the wrong size', async () => {
    const out = join(dir, 'out');
    await mkdir(join(out, 'frames'), { recursive: true });
    const first = [...files.keys()][0]!;
    await writeFile(join(out, 'frames', first), 'truncated');
    await downloadJobOutputs({ client, jobId: JOB_ID, dir: out });
    expect((await stat(join(out, 'frames', first))).size).toBe(files.get(first)!.length);
  });

  it('fetches fresh URLs once when the signed ones expired (403) and continues', async () => {
    server.next('GET', /^\/g1\//, failWith(403, 'Request has expired'), 100);
    server.route('GET', /^\/g2\//, (req, res) => serveFile(files.get(req.url!.split('/').pop()!)!)(req, res));
    const refreshing = {
      ...client,
      getDownloads: async () => {
        if (++downloadsCalls > 1) generation = 2;
        return downloads();
      },
    };
    const result = await downloadJobOutputs({ client: refreshing, jobId: JOB_ID, dir: join(dir, 'out') });
    expect(result.files).toHaveLength(12);
    expect(downloadsCalls).toBe(2);
  });

  it('retries 5xx per file and fails with a TransferError when it persists', async () => {
    const name = '0003.png';
    server.next('GET', `/g1/${name}`, failWith(503), 2);
    await downloadJobOutputs({ client, jobId: JOB_ID, dir: join(dir, 'a'), sleep: time.sleep, clock: time });
    server.next('GET', `/g1/${name}`, failWith(500), 10);
    await expect(downloadJobOutputs({ client, jobId: JOB_ID, dir: join(dir, 'b'), sleep: time.sleep, clock: time, maxAttemptsPerFile: 3 })).rejects.toMatchObject({ kind: 'transfer', status: 500 });
  });

  it('reports a job without outputs', async () => {
    files.clear();
    await expect(downloadJobOutputs({ client, jobId: JOB_ID, dir })).rejects.toMatchObject({ kind: 'transfer', code: 'no-outputs' });
  });

  it('stops on abort', async () => {
    server.next('GET', /^\/g1\//, (req) => void req.pause(), 100);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(downloadJobOutputs({ client, jobId: JOB_ID, dir: join(dir, 'out'), signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
  });
});
