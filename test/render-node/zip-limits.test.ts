import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestNode, type TestNode } from '../helpers/node';
import { failingBlender, paddedSceneZip, validateZip } from './helpers/zip-limits';
import { surveyZip } from '../../src/render-node/scene/zip-survey';

const MiB = 1024 * 1024;
const MB = 1_000_000;

const nodes: TestNode[] = [];
afterEach(async () => {
  await Promise.all(nodes.splice(0).map((n) => n.stop()));
});

describe('zips that expand too far', () => {
  it('the survey reads the sizes from the central directory', async () => {
    const bytes = await paddedSceneZip(30 * MiB);
    expect(bytes.length).toBeLessThan(MiB);
    const path = join(await mkdtemp(join(tmpdir(), 'rd-survey-')), 'b.zip');
    await writeFile(path, bytes);
    expect(await surveyZip(path)).toEqual({ entries: 2, totalBytes: 30 * MiB + 4096 });
  });

  it('past the extracted-bytes limit, validation fails with ZipTooLarge before anything is extracted', async () => {
    const node = await startTestNode({ blender: failingBlender, limits: { maxExtractedBytes: 10 * MB } });
    nodes.push(node);
    const job = await validateZip(node, await paddedSceneZip(30 * MB));
    expect(job.status).toBe('failed');
    expect(job.failedReason).toMatchObject({ name: 'ZipTooLarge', type: 'zip' });
    expect(job.failedReason.message).toMatch(/expands to 30\.0 MB; this render node accepts at most 10\.0 MB/);
    expect(await readdir(join(node.dataDir, 'jobs', job.id, 'scene'))).toEqual([]);
  });
});
