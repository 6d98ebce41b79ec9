import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createDeflateRaw } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { traceScene } from '../../../src/blend/pack/trace-scene';
import { writeBundle } from '../../../src/blend/pack/write-bundle';
import { ZipWriter } from '../../../src/blend/pack/zip-writer';
import { requireTool } from '../../helpers/tools';
import { writeTree } from '../helpers/scene-folder';
import { SyntheticBlend } from '../helpers/synthetic-blend';

const unzip = requireTool('unzip');
const sevenZip = requireTool('7z');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rd-zip-tools-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function zipOf(entries: { name: string; data: Buffer; deflate: boolean; expectedSize?: number }[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const zip = new ZipWriter({ write: async (c) => void chunks.push(Buffer.from(c)) });
  for (const e of entries) {
    await zip.addEntry(e.name, Readable.from([e.data]), {
      method: e.deflate ? 'deflate' : 'store',
      expectedSize: e.expectedSize ?? e.data.length,
      compress: (raw) => Readable.from(raw).pipe(createDeflateRaw()),
    });
  }
  await zip.finish();
  return Buffer.concat(chunks);
}

describe('zips Renderdrop writes, read by unzip and 7-Zip', () => {
  it('ZipWriter output passes their tests (UTF-8 names, stored, deflated, ZIP64 fields)', async () => {
    const path = join(dir, 'a.zip');
    await writeFile(
      path,
      await zipOf([
        { name: 'shot.blend', data: Buffer.alloc(20_000, 'blend'), deflate: true },
        { name: 'textures/größe ñ.png', data: Buffer.from('not really a png'), deflate: false },
        { name: 'empty.txt', data: Buffer.alloc(0), deflate: true },
        { name: 'big/as-zip64.bin', data: Buffer.from('expected to be huge'), deflate: false, expectedSize: 5 * 1024 ** 3 },
      ]),
    );
    if (unzip) expect(spawnSync(unzip, ['-tq', path], { encoding: 'utf8' }).status).toBe(0);
    if (sevenZip) expect(spawnSync(sevenZip, ['t', path], { encoding: 'utf8' }).stdout).toMatch(/Everything is Ok/);
  });

  it.skipIf(!sevenZip)('7-Zip counts every entry of a zip with more than 65535 (ZIP64 end records)', async () => {
    const path = join(dir, 'many.zip');
    await writeFile(path, await zipOf(Array.from({ length: 65_540 }, (_, i) => ({ name: `f/${i}`, data: Buffer.from(String(i)), deflate: false }))));
    expect(spawnSync(sevenZip!, ['t', path], { encoding: 'utf8' }).stdout).toMatch(/Files: 65540/);
  });

  it.skipIf(!unzip)('a bundle from writeBundle passes unzip -t', async () => {
    const scene = new SyntheticBlend();
    scene.addImage({ name: 'Grid', path: '//textures/grid.png' });
    await writeTree(join(dir, 'proj'), { 'shot.blend': scene.build(), 'textures/grid.png': Buffer.alloc(5000, 3) });
    const out = join(dir, 'bundle.zip');
    await writeBundle(await traceScene(join(dir, 'proj', 'shot.blend')), out);
    expect(spawnSync(unzip!, ['-tq', out], { encoding: 'utf8' }).status).toBe(0);
  });
});
