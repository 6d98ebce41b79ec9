import { describe, expect, it } from 'vitest';
import { expectedFrameNames, framePathStem } from '../../../src/render-node/frames/frame-names';

/** What Blender 3.4's `frame_path` wrote for these patterns and formats (checked by hand). */
describe('frame names', () => {
  it('puts the frame in the last run of #, padded to its length, or appends four digits', () => {
    expect(framePathStem('shot_####', 5)).toBe('shot_0005');
    expect(framePathStem('a_##_b_###', 7)).toBe('a_##_b_007');
    expect(framePathStem('a#b', 7)).toBe('a7b');
    expect(framePathStem('abc', 7)).toBe('abc0007');
    expect(framePathStem('#####', 7)).toBe('00007');
    expect(framePathStem('frame_', 123456)).toBe('frame_123456');
    expect(framePathStem('a_##', -3)).toBe('a_-03');
  });

  it('adds the format\'s extension', () => {
    const cases: [string, string][] = [
      ['PNG', 'shot_0005.png'],
      ['OPEN_EXR', 'shot_0005.exr'],
      ['OPEN_EXR_MULTILAYER', 'shot_0005.exr'],
      ['BMP', 'shot_0005.bmp'],
      ['TARGA_RAW', 'shot_0005.tga'],
      ['WEBP', 'shot_0005.webp'],
      ['HDR', 'shot_0005.hdr'],
    ];
    for (const [format, name] of cases) expect(expectedFrameNames('shot_####', format, 5), format).toContain(name);
    expect(expectedFrameNames('shot_####', 'JPEG', 5)).toEqual(['shot_0005.jpg', 'shot_0005.jpeg']);
    expect(expectedFrameNames('shot_####', 'TIFF', 5)).toContain('shot_0005.tif');
  });

  it('keeps a fitting extension in its case, replaces another image extension, appends to anything else', () => {
    expect(expectedFrameNames('a_##.PNG', 'PNG', 7)).toEqual(['a_07.PNG']);
    expect(expectedFrameNames('a_##.tiff', 'TIFF', 7)).toEqual(['a_07.tiff']);
    expect(expectedFrameNames('a_##.jpg', 'PNG', 7)).toEqual(['a_07.png']);
    expect(expectedFrameNames('a_##.png', 'JPEG', 7)).toContain('a_07.jpg');
    expect(expectedFrameNames('a_##.foo', 'PNG', 7)).toEqual(['a_07.foo.png']);
    expect(expectedFrameNames('a.png_##', 'PNG', 7)).toEqual(['a.png_07.png']);
  });

  it('knows no name for a format it does not know', () => {
    expect(expectedFrameNames('shot_####', 'FFMPEG', 1)).toEqual([]);
  });
});
