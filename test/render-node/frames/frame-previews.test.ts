import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { framePreviewName, framePreviews, latestFramePreview } from '../../../src/render-node/frames/frame-previews';
import { Storage } from '../../../src/render-node/disk/storage';

describe('frame previews', () => {
  it('are named after their frame, and found only where a preview was made', async () => {
    expect(framePreviewName('/data/jobs/j/frames/shot_0007.exr')).toBe('shot_0007.png');
    expect(framePreviewName('shot_0007.png')).toBe('shot_0007.png');
    const storage = new Storage(await mkdtemp(join(tmpdir(), 'rd-previews-')));
    await mkdir(storage.previewsDir('j1'), { recursive: true });
    const frames = [1, 2, 3].map((frame) => ({ frame, filePath: join(storage.framesDir('j1'), `shot_000${frame}.exr`) }));
    expect(latestFramePreview(storage, 'j1', frames)).toBeNull();
    await writeFile(join(storage.previewsDir('j1'), 'shot_0002.png'), 'png');
    expect(latestFramePreview(storage, 'j1', frames)).toBe('previews/shot_0002.png');
    await writeFile(join(storage.previewsDir('j1'), 'shot_0003.png'), 'png');
    expect(latestFramePreview(storage, 'j1', frames)).toBe('previews/shot_0003.png');
    expect([...framePreviews(storage, 'j1', frames)]).toEqual([
      [2, 'previews/shot_0002.png'],
      [3, 'previews/shot_0003.png'],
    ]);
  });
});
