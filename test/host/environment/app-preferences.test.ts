import { afterEach, describe, expect, it } from 'vitest';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AppPreferences } from '../../../src/host/environment/app-preferences';
import { tempDir } from '../../helpers/scene-files';

let dirs: string[] = [];

afterEach(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  dirs = [];
});

describe('AppPreferences', () => {
  it('saves again after a failed write once the cause is gone', async () => {
    const dir = await tempDir('rd-prefs-');
    dirs.push(dir);
    const prefs = new AppPreferences(dir);
    await mkdir(join(prefs.path, 'in-the-way'), { recursive: true });
    await expect(prefs.setTheme('light')).rejects.toThrow();
    await rm(prefs.path, { recursive: true });
    await prefs.rememberSettings('Shot.blend', { colorManagementPreset: 'default', sampleCount: 9 });
    const saved = JSON.parse(await readFile(prefs.path, 'utf8'));
    expect(saved).toEqual({ theme: 'light', scenes: { 'shot.blend': { colorManagementPreset: 'default', sampleCount: 9 } } });
    expect(new AppPreferences(dir).lastSettings('shot.blend')).toEqual({ colorManagementPreset: 'default', sampleCount: 9 });
  });
});
