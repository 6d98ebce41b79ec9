import { describe, expect, it } from 'vitest';
import { frameNumberOf, frameViews, plannedFrames, viewableType } from '../../../src/host/jobs/frame-list';

describe('frame-list', () => {
  it('reads the frame number from a rendered file name', () => {
    expect(frameNumberOf('shot_0012.png')).toBe(12);
    expect(frameNumberOf('v2/render_v3_0007.exr')).toBe(7);
    expect(frameNumberOf('0100.tif')).toBe(100);
    expect(frameNumberOf('beauty.png')).toBeNull();
  });

  it('knows which files a browser can show', () => {
    expect(viewableType('a_0001.PNG')).toBe('image/png');
    expect(viewableType('a_0001.jpg')).toBe('image/jpeg');
    expect(viewableType('a_0001.exr')).toBeNull();
    expect(viewableType('a_0001.tif')).toBeNull();
  });

  it('takes the frames from the final config, then the requested one, then the scene', () => {
    expect(plannedFrames({ frameRanges: ['1-3', '10'] }, { frameRanges: ['1-100'] }, null)).toEqual([1, 2, 3, 10]);
    expect(plannedFrames(null, { frameRanges: ['5-7'] }, null)).toEqual([5, 6, 7]);
    expect(plannedFrames(null, null, { frameStart: 1, frameEnd: 9, frameStep: 4 })).toEqual([1, 5, 9]);
    expect(plannedFrames({ frameRanges: 'oops' }, null, null)).toEqual([]);
  });

  it('marks frames done, pending while active and missing once ended, preferring the copy on disk', () => {
    const files = [
      { relativePath: 'shot_0001.png', onDisk: false },
      { relativePath: 'shot_0001.png', onDisk: true },
      { relativePath: 'shot_0003.exr', onDisk: false, hasPreview: true },
    ];
    expect(frameViews([1, 2, 3], files, false)).toEqual([
      { frame: 1, state: 'done', fileName: 'shot_0001.png', onDisk: true, viewable: true, hasPreview: false },
      { frame: 2, state: 'pending', fileName: null, onDisk: false, viewable: false, hasPreview: false },
      { frame: 3, state: 'done', fileName: 'shot_0003.exr', onDisk: false, viewable: false, hasPreview: true },
    ]);
    expect(frameViews([1, 2], [], true).map((f) => f.state)).toEqual(['missing', 'missing']);
    expect(frameViews([1], [{ relativePath: 'shot_0004.png', onDisk: true }], true).map((f) => f.frame)).toEqual([1, 4]);
  });
});
