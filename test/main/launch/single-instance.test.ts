import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { claimSingleInstance, type InstanceApp } from '../../../src/main/launch/single-instance';

vi.mock('electron', () => ({}));

class FakeApp extends EventEmitter {
  lockData: unknown = undefined;
  quit = vi.fn();
  constructor(readonly hasLock: boolean) {
    super();
  }
  requestSingleInstanceLock(data?: unknown) {
    this.lockData = data;
    return this.hasLock;
  }
}

function setup(hasLock: boolean, argv: string[]) {
  const app = new FakeApp(hasLock);
  const files: string[][] = [];
  const focus = vi.fn();
  const primary = claimSingleInstance(app as unknown as InstanceApp, { argv, cwd: '/work', onFiles: (p) => files.push(p), onSecondLaunch: focus });
  return { app, files, focus, primary };
}

describe('single instance', () => {
  it('a second launch hands its files to the lock and quits without handling them itself', () => {
    const { app, files, primary } = setup(false, ['renderdrop', 'shot.blend']);
    expect(primary).toBe(false);
    expect(app.lockData).toEqual({ files: ['/work/shot.blend'] });
    expect(app.quit).toHaveBeenCalledOnce();
    expect(files).toEqual([]);
  });

  it('the first instance submits its own files', () => {
    const { primary, files, app } = setup(true, ['renderdrop', 'a.blend', '--flag']);
    expect(primary).toBe(true);
    expect(files).toEqual([['/work/a.blend']]);
    expect(app.quit).not.toHaveBeenCalled();
  });

  it('the first instance receives a later launch: focuses the window, takes the handed-over files', () => {
    const { app, files, focus } = setup(true, ['renderdrop']);
    app.emit('second-instance', {}, ['renderdrop', '--ignored', 'x.blend'], '/elsewhere', { files: ['/home/ana/b.blend', '/home/ana/c.zip'] });
    expect(focus).toHaveBeenCalledOnce();
    expect(files).toEqual([['/home/ana/b.blend', '/home/ana/c.zip']]);
  });

  it('falls back to the second launch command line, resolved against its working folder', () => {
    const { app, files } = setup(true, ['renderdrop']);
    app.emit('second-instance', {}, ['renderdrop', 'x.blend', 'readme.md'], '/elsewhere', undefined);
    expect(files).toEqual([['/elsewhere/x.blend']]);
    app.emit('second-instance', {}, ['renderdrop'], '/elsewhere', undefined);
    expect(files).toHaveLength(1);
  });

  it('takes macOS open-file events for scenes, and tells macOS it handled them', () => {
    const { app, files } = setup(true, ['renderdrop']);
    const event = { preventDefault: vi.fn() };
    app.emit('open-file', event, '/Users/ana/shot.blend');
    app.emit('open-file', { preventDefault: vi.fn() }, '/Users/ana/photo.jpg');
    expect(event.preventDefault).toHaveBeenCalled();
    expect(files).toEqual([['/Users/ana/shot.blend']]);
  });
});
