import { describe, expect, it } from 'vitest';
import { blenderAddonRow } from '../../src/renderer/lib/blender-addon-row';
import type { BlenderAddonView } from '../../src/shared/contract';

const blender = (patch: Partial<BlenderAddonView>): BlenderAddonView => ({
  path: '/opt/blender-4.2/blender',
  version: '4.2.1',
  series: '4.2',
  supported: true,
  state: 'not-installed',
  installedVersion: null,
  ...patch,
});

describe('a Blender in Settings > Blender add-on', () => {
  it('offers "Install for Blender 4.2" where the add-on is not installed', () => {
    expect(blenderAddonRow(blender({}))).toEqual({ status: 'Not installed', install: 'Install for Blender 4.2', removable: false });
  });

  it('says "Installed" with Remove where it is', () => {
    expect(blenderAddonRow(blender({ state: 'installed', installedVersion: '1.0.0' }))).toEqual({ status: 'Installed', install: null, removable: true });
  });

  it('offers an update over an older version, a reinstall over changed files, and Remove for both', () => {
    const older = blenderAddonRow(blender({ series: '3.6', version: '3.6.5', state: 'outdated', installedVersion: '0.9.0' }));
    expect(older).toMatchObject({ install: 'Update for Blender 3.6', removable: true });
    expect(older.status).toContain('0.9.0');
    expect(blenderAddonRow(blender({ state: 'modified', installedVersion: '1.0.0' }))).toMatchObject({ install: 'Reinstall for Blender 4.2', removable: true });
  });

  it('offers nothing for a Blender too old for the add-on, or an add-on of that name it did not install', () => {
    expect(blenderAddonRow(blender({ series: '2.93', version: '2.93.0', supported: false }))).toMatchObject({ install: null, removable: false, status: expect.stringMatching(/3\.3 or newer/) });
    const foreign = blenderAddonRow(blender({ state: 'foreign' }));
    expect(foreign).toMatchObject({ install: null, removable: false });
    expect(foreign.status).toMatch(/not by this app/);
  });
});
