import { describe, expect, it } from 'vitest';
import { isScenePath, scenePathsFromArgv, scenePathsFromHandOver } from '../../../src/main/launch/scene-args';

describe('scene files on the command line', () => {
  it('keeps .blend and .zip arguments, resolved against the working folder, in order and once', () => {
    const argv = ['/opt/Renderdrop/renderdrop', '--no-sandbox', 'shots/a.blend', '/abs/b.ZIP', 'notes.txt', 'shots/a.blend', '-x', '/abs/c.blend'];
    expect(scenePathsFromArgv(argv, '/home/ana')).toEqual(['/home/ana/shots/a.blend', '/abs/b.ZIP', '/abs/c.blend']);
  });

  it('ignores the executable, the app folder of a development launch and Chromium switches', () => {
    expect(scenePathsFromArgv(['/usr/bin/electron', '.', '--original-process-start-time=1', '--inspect'], '/repo')).toEqual([]);
    expect(scenePathsFromArgv(['/x/scene.blend'], '/')).toEqual([]);
  });

  it('accepts file:// URLs and skips malformed ones', () => {
    expect(scenePathsFromArgv(['exe', 'file:///tmp/my%20shot.blend', 'file://host-only'], '/')).toEqual(['/tmp/my shot.blend']);
  });

  it('knows a scene by its extension', () => {
    expect(isScenePath('/a/b.blend')).toBe(true);
    expect(isScenePath('/a/b.zip')).toBe(true);
    expect(isScenePath('/a/b.blend1')).toBe(false);
    expect(isScenePath('/a/blend')).toBe(false);
  });

  it('reads a second instance hand-over only when it is a list of absolute scene paths', () => {
    expect(scenePathsFromHandOver({ files: ['/a.blend', 'relative.blend', '/b.txt', '/c.zip'] })).toEqual(['/a.blend', '/c.zip']);
    expect(scenePathsFromHandOver({ files: [1] })).toBeNull();
    expect(scenePathsFromHandOver(null)).toBeNull();
    expect(scenePathsFromHandOver({})).toBeNull();
  });
});
