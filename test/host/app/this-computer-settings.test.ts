import { describe, expect, it } from 'vitest';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppPreferences } from '../../../src/host/environment/app-preferences';
import type { LocalNode, NodeSettings } from '../../../src/host/profiles/local-node';
import { applyThisComputer, nodeSettingsProblem, thisComputerView } from '../../../src/host/app/this-computer-settings';

function fakeNode(applied: NodeSettings[]): LocalNode {
  return {
    url: 'http://127.0.0.1:1',
    apiKey: 'k',
    blender: null,
    keyStorage: 'memory',
    workers: async () => ({ mode: 'embedded' }),
    configure: (settings) => applied.push(settings),
    close: async () => undefined,
  };
}

describe('This computer render settings', () => {
  it('defaults to one render at a time on every core, and shows nothing without a node', async () => {
    const prefs = new AppPreferences(await mkdtemp(join(tmpdir(), 'rd-prefs-')));
    expect(thisComputerView(prefs, fakeNode([]), 8)).toEqual({ renders: 1, threads: null, cores: 8, maxRenders: 8 });
    expect(thisComputerView(prefs, null, 8)).toBeNull();
  });

  it('saves the settings, applies them to the node, and reads them back after a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rd-prefs-'));
    const applied: NodeSettings[] = [];
    await applyThisComputer(new AppPreferences(dir), fakeNode(applied), { renders: 2, threads: 4 }, 8);
    expect(applied).toEqual([{ renders: 2, threads: 4 }]);
    expect(thisComputerView(new AppPreferences(dir), fakeNode([]), 8)).toMatchObject({ renders: 2, threads: 4 });
  });

  it('refuses more threads than cores, and renders out of range, changing nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rd-prefs-'));
    const applied: NodeSettings[] = [];
    await expect(applyThisComputer(new AppPreferences(dir), fakeNode(applied), { renders: 1, threads: 9 }, 8)).rejects.toThrow('from 1 to 8 (the cores of this computer)');
    await expect(applyThisComputer(new AppPreferences(dir), null, { renders: 1, threads: null }, 8)).rejects.toThrow('not running');
    expect(applied).toEqual([]);
    expect(new AppPreferences(dir).thisComputer).toBeNull();
    expect(nodeSettingsProblem({ renders: 0, threads: null }, 8)).toMatch(/Renders at once/);
    expect(nodeSettingsProblem({ renders: 8, threads: 8 }, 8)).toBeNull();
  });
});
