import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { checkFolder } from '../../../src/core/verify/check-folder';
import { expectedFrames } from '../../../src/core/verify/expected-frames';
import { frameFileName, frameOfName, listedFrames, namingOf } from '../../../src/core/verify/frame-names';
import { missingFramesConfig, recordMissingFrames } from '../../../src/core/verify/render-missing';
import { SubmissionJournal } from '../../../src/core/journal/submission-journal';
import { framesToRender } from '../../../src/core/verify/verify-job-folder';
import { tempDir } from '../../helpers/scene-files';

/** A whole 2x2 RGB PNG: signature, IHDR, IDAT, IEND with their CRCs. */
function png(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(body.length, 0);
    head.write(type, 4, 'latin1');
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc(Buffer.concat([head.subarray(4), body])), 0);
    return Buffer.concat([head, body, tail]);
  };
  const ihdr = Buffer.from([0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0]);
  const rows = Buffer.from([0, 1, 2, 3, 4, 5, 6, 0, 7, 8, 9, 10, 11, 12]);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

describe('frame names', () => {
  it('read the naming and frame of a numbered image file, and name other frames alike', () => {
    expect(namingOf('shot2_0007.exr')).toEqual({ naming: { prefix: 'shot2_', width: 4, extension: '.exr' }, frame: 7 });
    expect(namingOf('notes.txt')).toBeNull();
    expect(namingOf('cover.png')).toBeNull();
    const naming = namingOf('shot_0001.png')!.naming;
    expect(frameFileName(naming, 12)).toBe('shot_0012.png');
    expect(frameFileName(naming, 123456)).toBe('shot_123456.png');
    expect(frameOfName(naming, 'shot_0012.PNG')).toBe(12);
    expect(frameOfName(naming, 'shot_123456.png')).toBe(123456);
    expect(frameOfName(naming, 'shot_012.png')).toBeNull();
    expect(frameOfName(naming, 'other_0012.png')).toBeNull();
  });

  it('take frame numbers from the server\'s frame key, else from the names, leaving compositor files out', () => {
    const item = (fileName: string, extra: Record<string, unknown> = {}) => ({ url: `http://n/${fileName}`, fileName, relativePath: fileName, compositeNodeName: '', ...extra });
    const listed = listedFrames({
      frames: [],
      compositeNodes: [],
      frameOutputs: [item('a_0001.png', { frame: 10 }), item('b_0002.png'), item('nonumber.png')],
      compositeNodeOutputs: [],
    });
    expect([...listed]).toEqual([
      [10, 'a_0001.png'],
      [2, 'b_0002.png'],
    ]);
  });
});

describe('expected frames', () => {
  it('come from the final ranges, else the requested ones, else the scene range', () => {
    expect(expectedFrames({ finalConfig: { frameRanges: ['1-3', '7'] }, requestedConfig: { frameRanges: ['1'] }, analysis: null })).toEqual([1, 2, 3, 7]);
    expect(expectedFrames({ finalConfig: null, requestedConfig: { frameRanges: ['4-8/2'] }, analysis: null })).toEqual([4, 6, 8]);
    expect(expectedFrames({ finalConfig: {}, requestedConfig: {}, analysis: { frameStart: 5, frameEnd: 9, frameStep: 2 } })).toEqual([5, 7, 9]);
    expect(expectedFrames({ finalConfig: null, requestedConfig: null, analysis: null })).toBeNull();
  });
});

describe('checkFolder', () => {
  it('sorts each frame into present, missing and broken, naming frames the server does not list after the others', async () => {
    const dir = await tempDir();
    const whole = png();
    await writeFile(join(dir, 'shot_0001.png'), whole);
    await writeFile(join(dir, 'shot_0002.png'), Buffer.alloc(0));
    await writeFile(join(dir, 'shot_0003.png'), whole.subarray(0, 40));
    await writeFile(join(dir, 'shot_0005.png'), whole);
    await writeFile(join(dir, 'shot_0006.png.part'), whole);
    await writeFile(join(dir, 'readme.txt'), 'hello');
    await mkdir(join(dir, 'Extra'));
    const check = await checkFolder({ folder: dir, frames: [1, 2, 3, 4, 5, 6], listed: new Map([[1, 'shot_0001.png']]) });
    expect(check.present).toEqual([1, 5]);
    expect(check.missing).toEqual([4, 6]);
    expect(check.broken).toEqual([
      { frame: 2, fileName: 'shot_0002.png', reason: 'the file is empty' },
      { frame: 3, fileName: 'shot_0003.png', reason: expect.any(String) },
    ]);
    expect(check.expected).toBe(6);
    expect(framesToRender(check)).toEqual([2, 3, 4, 6]);
  });

  it('finds every frame missing in a folder that does not exist', async () => {
    const check = await checkFolder({ folder: join(await tempDir(), 'nowhere'), frames: [1, 2], listed: new Map() });
    expect(check).toMatchObject({ present: [], missing: [1, 2], broken: [], naming: null });
  });
});

describe('missingFramesConfig', () => {
  it('keeps the recorded settings and asks for exactly the missing frames', () => {
    const record = { renderConfig: { colorManagementPreset: 'aces', sampleCount: 8, frameRanges: ['1-10'] } };
    expect(missingFramesConfig(record, { requestedConfig: null }, [2, 3, 7])).toEqual({ colorManagementPreset: 'aces', sampleCount: 8, frameRanges: ['2-3,7'] });
    expect(missingFramesConfig(null, { requestedConfig: { colorManagementPreset: 'default', activeCamera: 'Cam' } }, [4])).toEqual({
      colorManagementPreset: 'default',
      activeCamera: 'Cam',
      frameRanges: ['4'],
    });
    expect(missingFramesConfig({ renderConfig: null }, { requestedConfig: { bogus: true } }, [1])).toEqual({ colorManagementPreset: 'default', frameRanges: ['1'] });
  });
});

describe('recordMissingFrames', () => {
  it('refuses a job that is still rendering, and a folder that misses nothing, recording nothing', async () => {
    const dataDir = await tempDir();
    const journal = new SubmissionJournal({ dataDir });
    const job = (status: 'rendering' | 'completed') => ({ id: 'j1', status, workspaceId: 'w', createdAt: '', updatedAt: '' });
    const check = (missing: number[]) => ({ folder: dataDir, expected: 3, present: [1, 2, 3].filter((f) => !missing.includes(f)), missing, broken: [], naming: null });
    await expect(recordMissingFrames({ journal, original: null, job: job('rendering'), check: check([2]) })).rejects.toThrow('This job is still rendering; its missing frames can be rendered once it has finished.');
    await expect(recordMissingFrames({ journal, original: null, job: job('completed'), check: check([]) })).rejects.toThrow('Every frame of this job is in its folder; there is nothing to render.');
    await expect(recordMissingFrames({ journal, original: null, job: job('completed'), check: check([2]) })).rejects.toThrow('This job was not sent from this computer');
    expect(await journal.list()).toEqual([]);
  });
});
