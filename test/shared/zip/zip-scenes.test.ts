import { describe, expect, it } from 'vitest';
import { blendFilesOf, defaultScene, namedScene } from '../../../src/shared/zip/zip-scenes';

describe('the scene of a zip', () => {
  it('is the only .blend at its top, the ones below being its libraries', () => {
    expect(defaultScene(['main.blend', 'lib/props.blend', 'lib/chars.blend'])).toEqual({ kind: 'one', path: 'main.blend' });
    expect(defaultScene(['shot/scene.blend'])).toEqual({ kind: 'one', path: 'shot/scene.blend' });
    expect(defaultScene([])).toEqual({ kind: 'none' });
  });

  it('is to be chosen among the ones at the top, or among all when none is at the top', () => {
    expect(defaultScene(['a.blend', 'b.blend', 'lib/l.blend'])).toEqual({ kind: 'several', candidates: ['a.blend', 'b.blend'] });
    expect(defaultScene(['x/a.blend', 'y/b.blend'])).toEqual({ kind: 'several', candidates: ['x/a.blend', 'y/b.blend'] });
  });

  it('is found by any spelling of its path that lands on it, and never outside the zip', () => {
    const blends = blendFilesOf(['shots/a.blend', 'shots/b.BLEND', 'tex/a.png']);
    expect(blends).toEqual(['shots/a.blend', 'shots/b.BLEND']);
    expect(namedScene(blends, 'shots\\a.blend')).toBe('shots/a.blend');
    expect(namedScene(blends, './shots/x/../b.BLEND')).toBe('shots/b.BLEND');
    expect(namedScene(blends, 'a.blend')).toBeNull();
    expect(namedScene(blends, '../shots/a.blend')).toBeNull();
  });
});
