import { describe, expect, it } from 'vitest';
import { serializeError } from '../../../src/core/errors';
import type { AddonStatus, BlenderInstall } from '../../../src/core/addon';
import { addonHandlers, type AddonInstaller } from '../../../src/host/addon/addon-handlers';
import { dispatchCall } from '../../../src/shared/contract';

/** A computer with some Blenders, whose add-on folders are kept in memory. */
class FakeComputer implements AddonInstaller {
  blenders: BlenderInstall[];
  installed = new Map<string, string>();
  finds = 0;
  ran: string[] = [];
  failWith: Error | null = null;

  constructor(blenders: BlenderInstall[]) {
    this.blenders = blenders;
  }

  async findBlenders(): Promise<BlenderInstall[]> {
    this.finds++;
    return [...this.blenders];
  }

  async addonStatus(blender: BlenderInstall): Promise<AddonStatus> {
    if (this.failWith) throw this.failWith;
    const version = this.installed.get(blender.addonsDir);
    return { folder: `${blender.addonsDir}/renderdrop_blender`, version: '1.0.0', installedVersion: version ?? null, state: version === undefined ? 'not-installed' : version === '1.0.0' ? 'installed' : 'outdated' };
  }

  async installAddon(blender: BlenderInstall): Promise<AddonStatus> {
    this.ran.push(`install ${blender.path}`);
    if (!blender.supported) throw new Error(`The Renderdrop add-on needs Blender 3.3 or newer; ${blender.path} is Blender ${blender.version}.`);
    this.installed.set(blender.addonsDir, '1.0.0');
    return this.addonStatus(blender);
  }

  async uninstallAddon(blender: BlenderInstall): Promise<AddonStatus> {
    this.ran.push(`uninstall ${blender.path}`);
    this.installed.delete(blender.addonsDir);
    return this.addonStatus(blender);
  }
}

function blender(version: string, path: string): BlenderInstall {
  const series = version.split('.').slice(0, 2).join('.');
  const [major = 0, minor = 0] = series.split('.').map(Number);
  return { path, version, series, origin: 'PATH', addonsDir: `/home/artist/.config/blender/${series}/scripts/addons`, supported: major > 3 || (major === 3 && minor >= 3) };
}

function setup(blenders = [blender('4.2.1', '/opt/blender-4.2/blender'), blender('3.6.5', '/usr/bin/blender'), blender('2.93.0', '/opt/old/blender')]) {
  const computer = new FakeComputer(blenders);
  const handlers = addonHandlers(computer);
  const call = (name: 'addon.blenders' | 'addon.install' | 'addon.uninstall', request: unknown) => dispatchCall(handlers as never, name, request, serializeError);
  return { computer, handlers, call };
}

describe('Settings > Blender add-on (addon.* calls)', () => {
  it('lists every Blender found, newest first as found, with the add-on state in each', async () => {
    const { handlers, computer } = setup();
    computer.installed.set(computer.blenders[1]!.addonsDir, '0.9.0');
    const view = await handlers['addon.blenders']({});
    expect(view.problem).toBeNull();
    expect(view.version).toBe('1.0.0');
    expect(view.blenders).toEqual([
      { path: '/opt/blender-4.2/blender', version: '4.2.1', series: '4.2', supported: true, state: 'not-installed', installedVersion: null },
      { path: '/usr/bin/blender', version: '3.6.5', series: '3.6', supported: true, state: 'outdated', installedVersion: '0.9.0' },
      { path: '/opt/old/blender', version: '2.93.0', series: '2.93', supported: false, state: 'not-installed', installedVersion: null },
    ]);
  });

  it('installs into the Blender named, and removes again; installing twice is harmless', async () => {
    const { handlers, computer } = setup();
    await handlers['addon.blenders']({});
    const first = await handlers['addon.install']({ blender: '/opt/blender-4.2/blender' });
    expect(first).toMatchObject({ series: '4.2', state: 'installed', installedVersion: '1.0.0' });
    expect((await handlers['addon.install']({ blender: '/opt/blender-4.2/blender' })).state).toBe('installed');
    const listed = await handlers['addon.blenders']({});
    expect(listed.blenders.map((b) => b.state)).toEqual(['installed', 'not-installed', 'not-installed']);
    expect((await handlers['addon.uninstall']({ blender: '/opt/blender-4.2/blender' })).state).toBe('not-installed');
    expect(computer.ran).toEqual(['install /opt/blender-4.2/blender', 'install /opt/blender-4.2/blender', 'uninstall /opt/blender-4.2/blender']);
  });

  it('acts only on a Blender it found: another path is refused without running anything', async () => {
    const { call, computer } = setup();
    await call('addon.blenders', {});
    const result = await call('addon.install', { blender: '/tmp/evil/blender' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'config', code: 'blender-not-found' } });
    expect(computer.ran).toEqual([]);
    expect(computer.finds).toBe(2);
  });

  it('looks again when a Blender installed since the list was read is named', async () => {
    const { handlers, computer } = setup([blender('4.2.1', '/opt/blender-4.2/blender')]);
    await handlers['addon.blenders']({});
    computer.blenders.push(blender('4.3.0', '/opt/blender-4.3/blender'));
    expect((await handlers['addon.install']({ blender: '/opt/blender-4.3/blender' })).state).toBe('installed');
  });

  it('says in one line why an install failed', async () => {
    const { call } = setup();
    await call('addon.blenders', {});
    const result = await call('addon.install', { blender: '/opt/old/blender' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.message).toBe('Could not install the add-on for Blender 2.93: The Renderdrop add-on needs Blender 3.3 or newer; /opt/old/blender is Blender 2.93.0.');
    expect(result.error.message).not.toMatch(/\n/);
  });

  it('still lists the Blenders when the add-on state cannot be read, saying why once', async () => {
    const { handlers, computer } = setup();
    computer.failWith = new Error('The Blender add-on (addon/renderdrop_blender) was not found.');
    const view = await handlers['addon.blenders']({});
    expect(view.blenders).toHaveLength(3);
    expect(view.problem).toMatch(/could not be read: The Blender add-on/);
    expect(view.version).toBeNull();
  });

  it('checks the request: a path is required', async () => {
    const { call } = setup();
    expect(await call('addon.install', {})).toMatchObject({ ok: false });
    expect(await call('addon.uninstall', { blender: '' })).toMatchObject({ ok: false });
  });

  it('lists nothing on a computer without Blender', async () => {
    const { handlers } = setup([]);
    expect(await handlers['addon.blenders']({})).toEqual({ blenders: [], version: null, problem: null });
  });
});
