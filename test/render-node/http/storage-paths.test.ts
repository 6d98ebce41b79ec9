import { connect } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../../src/render-node/store/keys';
import { startTestNode, type TestNode } from '../../helpers/node';

/** The status line's code of a raw GET (fetch would resolve `..` and `%2e%2e` before sending). */
function rawStatus(url: string, path: string): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
    socket.on('error', reject);
  });
}

describe('signed job file URLs take only a job id and a path inside its folder', () => {
  let t: TestNode;
  let keyId: string;
  const jobId = '0b5f0c7e-1111-4222-8333-944455556666';
  beforeAll(async () => {
    t = await startTestNode({ blender: null });
    keyId = createKey(t.node.ctx.db, 'urls').info.id;
    await mkdir(join(t.dataDir, 'jobs', jobId, 'frames'), { recursive: true });
    await writeFile(join(t.dataDir, 'jobs', jobId, 'frames', 'f.png'), 'frame');
  });
  afterAll(() => t.stop());

  const signed = (path: string) => `${path}?${t.node.ctx.signer.sign('GET', path, new Date(Date.now() + 60_000), keyId)}`;

  it('serves a validly signed file of a job', async () => {
    expect(await rawStatus(t.url, signed(`/storage/jobs/${jobId}/frames/f.png`))).toBe(200);
  });

  it('refuses `..` or an encoded `..` as the job id, or in the path, although the URL is validly signed', async () => {
    for (const path of [
      '/storage/jobs/%2e%2e/node.sqlite',
      '/storage/jobs/%2E%2E/node.sqlite',
      '/storage/jobs/../node.sqlite',
      '/storage/jobs/..%2fjobs/x',
      `/storage/jobs/${jobId}/..%2f..%2fnode.sqlite`,
      `/storage/jobs/${jobId}/%2e%2e/%2e%2e/node.sqlite`,
      `/storage/jobs/${jobId}/frames/..%5c..%5c..%5cnode.sqlite`,
    ]) {
      expect([400, 404], path).toContain(await rawStatus(t.url, signed(path)));
    }
  });
});
