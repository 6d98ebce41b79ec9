import { describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { requireSmallDisk, smallDisksPerTest, type SmallDisk } from '../helpers/small-disk';
import { startTestNode } from '../helpers/node';
import { failingBlender, paddedSceneZip, validateZip } from './helpers/zip-limits';

const canMount = requireSmallDisk();
const MiB = 1024 * 1024;
const MB = 1_000_000;

const scratch = smallDisksPerTest();
let disk: SmallDisk;

describe('zips that expand past the free space', () => {
  it.skipIf(!canMount)('past the free space, validation fails naming disk space before anything is extracted, and the node stays healthy', async () => {
    disk = scratch.mount(24);
    const node = scratch.keep(await startTestNode({ blender: failingBlender, dataDir: join(disk.dir, 'data'), headroomBytes: MiB, reserveBytes: 256 * 1024 }));
    const job = await validateZip(node, await paddedSceneZip(40 * MB));
    expect(job.status).toBe('failed');
    expect(job.failedReason).toMatchObject({ name: 'DiskFull', type: 'disk' });
    expect(job.failedReason.message).toMatch(/Not enough disk space on the render node: unpacking the zip needs about 40\.0 MB/);
    expect(await readdir(join(node.dataDir, 'jobs', job.id, 'scene'))).toEqual([]);
    expect((await fetch(`${node.url}/healthz`)).status).toBe(200);
  });
});
