import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownCliCommand } from '../../../src/main/launch/own-cli';

describe('the desktop app\'s own renderdrop command', () => {
  it('is its Electron binary run as Node on the CLI it ships, and none for an AppImage whose mount moves', () => {
    expect(ownCliCommand({ appPath: '/opt/Renderdrop/resources/app.asar', execPath: '/opt/Renderdrop/renderdrop', env: {} })).toEqual({
      command: ['/opt/Renderdrop/renderdrop', join('/opt/Renderdrop/resources/app.asar', 'out', 'cli', 'renderdrop.js')],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    });
    expect(ownCliCommand({ appPath: '/tmp/.mount_x/resources/app.asar', execPath: '/tmp/.mount_x/renderdrop', env: { APPIMAGE: '/home/a/Renderdrop.AppImage' } })).toBeNull();
  });
});
