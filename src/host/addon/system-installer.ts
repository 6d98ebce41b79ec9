import { addonStatus, findBlenders, installAddon, refuseAddonLinks, setAddonEnabled, uninstallAddon } from '../../core/addon';
import type { AddonInstaller } from './addon-handlers';

/** The command that runs this Renderdrop's own `renderdrop` (program and first arguments), and the environment it needs. */
export interface CliCommand {
  command: readonly string[];
  env?: Readonly<Record<string, string>>;
}

/**
 * The add-on installer on this computer, as `renderdrop addon` does it: Blenders on PATH, in the usual
 * folders and the one the app renders with (`configured`), looked up with the app's environment
 * (BLENDER_USER_SCRIPTS honoured) and the artist's home folder. Installing also turns the add-on on
 * in that Blender's preferences; removing what Renderdrop installed turns it off first (after checking
 * that no symbolic link sits in what it would delete). The install record names `cli`, the command
 * that runs this Renderdrop's own CLI, so the add-on finds Renderdrop with the app closed.
 */
export function systemAddonInstaller(options: { env: NodeJS.ProcessEnv; home: string; configured: () => string[]; cli?: CliCommand | null }): AddonInstaller {
  const { env } = options;
  const cli = options.cli ? { cli: options.cli.command, ...(options.cli.env ? { cliEnv: options.cli.env } : {}) } : {};
  return {
    findBlenders: () => findBlenders({ env, home: options.home, configured: options.configured() }),
    addonStatus: (blender) => addonStatus(blender),
    installAddon: async (blender) => {
      const status = await installAddon(blender, cli);
      await setAddonEnabled(blender, true, { env });
      return status;
    },
    uninstallAddon: async (blender) => {
      const before = await addonStatus(blender);
      if (before.state === 'not-installed' || before.state === 'foreign') return before;
      await refuseAddonLinks(blender);
      await setAddonEnabled(blender, false, { env }).catch(() => false);
      return uninstallAddon(blender);
    },
  };
}
