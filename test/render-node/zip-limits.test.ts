import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yazl from 'yazl';
import { blendBytes } from '../helpers/scene-files';
import { startTestNode, uploadBytes, waitForJob, type TestNode } from '../helpers/node';
import type { BlenderInfo } from '../../src/render-node/blender/probe';
import { surveyZip } from '../../src/render-node/scene/zip-survey';

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

const nodes: TestNode[] = [];
afterEach(async () => {
  await Promise.all(nodes.splice(0).map((n) => n.stop()));
});

async function validateZip(t: TestNode, bytes: Buffer): Promise<any> {
  const slug = await uploadBytes(t, 'bundle.zip', bytes);
  const job = (await t.call('POST', '/jobs', { slug })).json;
  await t.call('POST', `/jobs/${job.id}/validate`);
  return waitForJob(t, job.id, (j) => j.status !== 'validating');
}

describe('zips that expand too far', () => {
  it('the survey reads the sizes from the central directory', async () => {
    const bytes = await bomb(30 * MiB);
    expect(bytes.length).toBeLessThan(MiB);
    const path = join(await mkdtemp(join(tmpdir(), 'rd-survey-')), 'b.zip');
    await writeFile(path, bytes);
    expect(await surveyZip(path)).toEqual({ entries: 2, totalBytes: 30 * MiB + 4096 });
  });

  it('past the extracted-bytes limit, validation fails with ZipTooLarge before anything is extracted', async () => {
    const node = await startTestNode({ blender: failingBlender, limits: { maxExtractedBytes: 10 * MB } });
    nodes.push(node);
    const job = await validateZip(node, await bomb(30 * MB));
    expect(job.status).toBe('failed');
    expect(job.failedReason).toMatchObject({ name: 'ZipTooLarge', type: 'zip' });
    expect(job.failedReason.message).toMatch(/expands to 30\.0 MB; this render node accepts at most 10\.0 MB/);
    expect(await readdir(join(node.dataDir, 'jobs', job.id, 'scene'))).toEqual([]);
  });
});
