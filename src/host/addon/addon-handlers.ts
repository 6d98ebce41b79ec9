import { ConfigError } from '../../core/errors';
import type { AddonStatus, BlenderInstall } from '../../core/addon';
import type { AddonView, BlenderAddonView } from '../../shared/contract';
import type { NamespaceHandlers } from '../namespace-handlers';

/** What the add-on calls do on this computer (core's add-on installer, or a fake in tests). */
export interface AddonInstaller {
  findBlenders(): Promise<BlenderInstall[]>;
  addonStatus(blender: BlenderInstall): Promise<AddonStatus>;
  installAddon(blender: BlenderInstall): Promise<AddonStatus>;
  uninstallAddon(blender: BlenderInstall): Promise<AddonStatus>;
}

/**
 * The `addon.*` calls behind Settings > Blender add-on: every Blender found on this computer with the
 * add-on's state in each, and installing or removing it per Blender. Only a Blender the last look
 * found (or a fresh look finds) is acted on: a path the UI names is never taken as a program to run.
 */
export function addonHandlers(installer: AddonInstaller): NamespaceHandlers<'addon'> {
  let found: BlenderInstall[] = [];
  const find = async (): Promise<BlenderInstall[]> => {
    found = await installer.findBlenders();
    return found;
  };
  const known = async (path: string): Promise<BlenderInstall> => {
    const blender = found.find((b) => b.path === path) ?? (await find()).find((b) => b.path === path);
    if (!blender) throw new ConfigError('That Blender is no longer on this computer. Look again in Settings.', { code: 'blender-not-found' });
    return blender;
  };
  return {
    'addon.blenders': async () => addonView(installer, await find()),
    'addon.install': async ({ blender }) => {
      const install = await known(blender);
      return viewOf(install, await act(() => installer.installAddon(install), `install the add-on for Blender ${install.series}`));
    },
    'addon.uninstall': async ({ blender }) => {
      const install = await known(blender);
      return viewOf(install, await act(() => installer.uninstallAddon(install), `remove the add-on from Blender ${install.series}`));
    },
  };
}

/** Each Blender with the add-on's state; when the state cannot be read, the reason once, for all. */
async function addonView(installer: AddonInstaller, blenders: BlenderInstall[]): Promise<AddonView> {
  let problem: string | null = null;
  let version: string | null = null;
  const views = await Promise.all(
    blenders.map(async (blender) => {
      try {
        const status = await installer.addonStatus(blender);
        version = status.version;
        return viewOf(blender, status);
      } catch (error) {
        problem ??= `The add-on's state could not be read: ${error instanceof Error ? error.message : String(error)}`;
        return viewOf(blender, null);
      }
    }),
  );
  return { blenders: views, version, problem };
}

function viewOf(blender: BlenderInstall, status: AddonStatus | null): BlenderAddonView {
  return {
    path: blender.path,
    version: blender.version,
    series: blender.series,
    supported: blender.supported,
    state: status?.state ?? 'not-installed',
    installedVersion: status?.installedVersion ?? null,
  };
}

/** Runs an install or removal; a failure becomes one line saying what could not be done and why. */
async function act(run: () => Promise<AddonStatus>, what: string): Promise<AddonStatus> {
  try {
    return await run();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`Could not ${what}: ${why}`, { code: 'addon-install' });
  }
}
