import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { ADDON_MODULE } from './addon-source';
import type { BlenderInstall } from './find-blenders';

const SCRIPT = (enable: boolean) =>
  [
    'import addon_utils, bpy',
    enable ? `addon_utils.enable(${JSON.stringify(ADDON_MODULE)}, default_set=True, handle_error=None)` : `addon_utils.disable(${JSON.stringify(ADDON_MODULE)}, default_set=True, handle_error=None)`,
    'bpy.ops.wm.save_userpref()',
    `print("RENDERDROP_ADDON_ENABLED", ${JSON.stringify(ADDON_MODULE)} in bpy.context.preferences.addons)`,
  ].join('\n');

/**
 * Turns the add-on on (or off) in `blender`'s preferences: runs that Blender in the background, which
 * enables it and saves the preferences. Resolves with whether it is enabled afterwards.
 * A `BLENDER_USER_CONFIG` folder is created first: Blender saves its preferences there only when the
 * folder exists, and otherwise into the user's usual config folder when one is there.
 */
export async function setAddonEnabled(blender: BlenderInstall, enable: boolean, options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<boolean> {
  const env = options.env ?? process.env;
  const config = env.BLENDER_USER_CONFIG;
  if (config) {
    await mkdir(config, { recursive: true }).catch((err: NodeJS.ErrnoException) => {
      throw new Error(`Blender's preferences folder ${config} (BLENDER_USER_CONFIG) could not be created (${err.code ?? err.message}).`);
    });
  }
  return new Promise((resolve, reject) => {
    execFile(
      blender.path,
      ['-b', '--python-exit-code', '1', '--python-expr', SCRIPT(enable)],
      { env, timeout: options.timeoutMs ?? 120_000, maxBuffer: 8 << 20, windowsHide: true },
      (error, stdout) => {
        const line = /^RENDERDROP_ADDON_ENABLED (True|False)$/m.exec(String(stdout));
        if (line) resolve(line[1] === 'True');
        else reject(new Error(`Blender ${blender.version} could not ${enable ? 'enable' : 'disable'} the add-on${error ? ` (${error.message.split('\n')[0]})` : ''}.`));
      },
    );
  });
}
