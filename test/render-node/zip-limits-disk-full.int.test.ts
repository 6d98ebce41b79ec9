import { describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import yazl from 'yazl';
import { blendBytes } from '../helpers/scene-files';
import { requireSmallDisk, smallDisksPerTest, type SmallDisk } from '../helpers/small-disk';
import { startTestNode, uploadBytes, waitForJob, type TestNode } from '../helpers/node';
import type { BlenderInfo } from '../../src/render-node/blender/probe';

const canMount = requireSmallDisk();
const MiB = 1024 * 1024;
const MB = 1_000_000;

/** A Blender that exits at once: validation gets as far as analysing, which then fails. */
const failingBlender: BlenderInfo = {
  path: '/bin/false',
  version: '3.4.1',
  versionParts: [3, 4, 1],
  cyclesDevices: ['CPU'],
  openImageDenoise: false,
  optix: false,
  viewTransforms: ['Standard'],
  hasAces: false,
  eeveeUsable: null,
  displayDevices: ['sRGB'],
  looks: [],
  colorSpaces: [],
  ocioConfig: null,
};

/** A zip with a scene and `padding` bytes of zeros (a few KiB compressed). */
async function bomb(padding: number): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(blendBytes(4096), 'scene.blend');
  zip.addBuffer(Buffer.alloc(padding), 'textures/huge.raw', { compress: true });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const scratch = smallDisksPerTest();
let disk: SmallDisk;

async function validateZip(t: TestNode, bytes: Buffer): Promise<any> {
  const slug = await uploadBytes(t, 'bundle.zip', bytes);
  const job = (await t.call('POST', '/jobs', { slug })).json;
  await t.call('POST', `/jobs/${job.id}/validate`);
  return waitForJob(t, job.id, (j) => j.status !== 'validating');
}

describe('zips that expand past the free space', () => {
  it.skipIf(!canMount)('past the free space, validation fails naming disk space before anything is extracted, and the node stays healthy', async () => {
    disk = scratch.mount(24);
    const node = scratch.keep(await startTestNode({ blender: failingBlender, dataDir: join(disk.dir, 'data'), headroomBytes: MiB, reserveBytes: 256 * 1024 }));
    const job = await validateZip(node, await bomb(40 * MB));
    expect(job.status).toBe('failed');
    expect(job.failedReason).toMatchObject({ name: 'DiskFull', type: 'disk' });
    expect(job.failedReason.message).toMatch(/Not enough disk space on the render node: unpacking the zip needs about 40\.0 MB/);
    expect(await readdir(join(node.dataDir, 'jobs', job.id, 'scene'))).toEqual([]);
    expect((await fetch(`${node.url}/healthz`)).status).toBe(200);
  });
});
