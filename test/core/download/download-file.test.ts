import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { downloadFile, type FileDownloadOptions } from '../../../src/core/download/download-file';
import { TransferError } from '../../../src/core/errors';
import { FakeTime } from '../../helpers/fake-time';
import { HostileServer, serveFile } from '../../helpers/hostile-server';
import { tempDir } from '../../helpers/scene-files';
import { untilFileHolds } from '../../helpers/until-file-holds';

let server: HostileServer;
let dir: string;
let time: FakeTime;

beforeEach(async () => {
  server = await HostileServer.start();
  dir = await tempDir();
  time = new FakeTime();
});
afterEach(() => server.close());

function options(path: string, extra: Partial<FileDownloadOptions> = {}): FileDownloadOptions {
  return { url: () => `${server.url}/frame.png`, path, sleep: time.sleep, clock: time, random: () => 0.5, onBytes: () => undefined, ...extra };
}

describe('downloadFile after a restart', () => {
  it('resumes a .part only when the file on the server is still the same version', async () => {
    const before = randomBytes(40_000);
    const after = randomBytes(40_000);
    const path = join(dir, 'frame.png');
    server.next('GET', '/frame.png', serveFile(before, { etag: '"before"', cutAfter: 15_000, cutWhen: () => untilFileHolds(`${path}.part`, 15_000) }));
    await expect(downloadFile(options(path, { maxAttempts: 1 }))).rejects.toBeInstanceOf(TransferError);
    expect((await readdir(dir)).sort()).toEqual(['frame.png.part', 'frame.png.part.etag']);

    server.route('GET', '/frame.png', serveFile(after, { etag: '"after"' }));
    const result = await downloadFile(options(path));
    expect(result).toEqual({ outcome: 'downloaded', bytes: after.length });
    const [resumed] = server.requestsTo('GET', '/frame.png').slice(-1);
    expect(resumed!.headers).toMatchObject({ range: 'bytes=15000-', 'if-range': '"before"' });
    expect((await readFile(path)).equals(after)).toBe(true);
    expect(await readdir(dir)).toEqual(['frame.png']);
  });

  it('continues a .part of an unchanged file from where it stopped', async () => {
    const content = randomBytes(40_000);
    const path = join(dir, 'frame.png');
    server.next('GET', '/frame.png', serveFile(content, { etag: '"same"', cutAfter: 15_000, cutWhen: () => untilFileHolds(`${path}.part`, 15_000) }));
    await expect(downloadFile(options(path, { maxAttempts: 1 }))).rejects.toBeInstanceOf(TransferError);
    server.route('GET', '/frame.png', serveFile(content, { etag: '"same"' }));
    let fetched = 0;
    await downloadFile(options(path, { onBytes: (n) => (fetched += n) }));
    expect(fetched).toBe(25_000);
    expect((await readFile(path)).equals(content)).toBe(true);
    expect(await readdir(dir)).toEqual(['frame.png']);
  });
});

describe('downloadFile on a disk that refuses', () => {
  it('fails at once, naming the folder, when something is in the way of the .part file', async () => {
    server.route('GET', '/frame.png', serveFile(randomBytes(10_000)));
    const folder = join(dir, 'frames');
    await mkdir(join(folder, 'frame.png.part'), { recursive: true });
    const error = await downloadFile(options(join(folder, 'frame.png'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransferError);
    expect(error).toMatchObject({ code: 'disk-in-the-way' });
    expect((error as Error).message).toContain(`Cannot write to ${folder}`);
    expect((error as Error).message).not.toMatch(/connection/);
    expect(server.requestsTo('GET', '/frame.png')).toHaveLength(1);
    expect(time.sleeps).toEqual([]);
  });

  it.skipIf(process.platform !== 'linux')('says the disk is full instead of retrying as if the network broke', async () => {
    server.route('GET', '/frame.png', serveFile(randomBytes(100_000)));
    const path = join(dir, 'frame.png');
    await symlink('/dev/full', `${path}.part`);
    const error = await downloadFile(options(path)).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'transfer', code: 'disk-full' });
    expect((error as Error).message).toBe(`Not enough space in ${dir} to download frame.png. Free some space, then run the download again; it resumes.`);
    expect(server.requestsTo('GET', '/frame.png')).toHaveLength(1);
  });

  it('fails clearly when the download folder cannot be created', async () => {
    server.route('GET', '/frame.png', serveFile(randomBytes(1000)));
    const blocker = join(dir, 'taken');
    await writeFile(blocker, 'a file, not a folder');
    const error = await downloadFile(options(join(blocker, 'frames', 'frame.png'))).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'transfer', code: 'disk-in-the-way' });
    expect(server.requestsTo('GET', '/frame.png')).toHaveLength(0);
  });
});
