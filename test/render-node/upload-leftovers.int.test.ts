import { describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, startServeProcess } from '../helpers/cli';

describe('a node killed during an upload', () => {
  it('leaves no partial upload file once it starts again, even at once', async () => {
    const work = await mkdtemp(join(tmpdir(), 'rd-part-'));
    const data = join(work, 'data');
    const key = (await runCli(['node', 'keys', 'create', '--data', data, '--name', 'part'])).stdout.trim().split('\n').pop()!;
    const serve = ['--port', '0', '--data', data];
    const first = await startServeProcess(serve);
    const target = (await (
      await fetch(`${first.url}/api/external/v1/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ fileName: 'big.blend', fileType: 'blend' }),
      })
    ).json()) as { uploadUrl: string };
    const put = request(target.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/octet-stream', 'content-length': String(64 * 1024 * 1024) } });
    put.on('error', () => {});
    put.write(Buffer.alloc(1024 * 1024, 7));
    const uploads = join(data, 'uploads');
    for (let i = 0; i < 300 && !(await readdir(uploads)).some((n) => n.startsWith('.part-')); i++) await new Promise((r) => setTimeout(r, 20));
    expect((await readdir(uploads)).filter((n) => n.startsWith('.part-'))).toHaveLength(1);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    put.destroy();

    const second = await startServeProcess(serve);
    try {
      expect((await readdir(uploads)).filter((n) => n.startsWith('.part-'))).toEqual([]);
    } finally {
      second.child.kill('SIGTERM');
      await new Promise((r) => second.child.once('exit', r));
      await rm(work, { recursive: true, force: true });
    }
  });
});
