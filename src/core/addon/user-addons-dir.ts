import path from 'node:path';

/** What {@link userAddonsDir} needs to know about the computer. */
export interface UserFolderOptions {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home: string;
}

/**
 * The folder Blender of `series` ("3.4") loads a user's add-ons from: `BLENDER_USER_SCRIPTS/addons`
 * when that is set, else `scripts/addons` in the version's user folder (`~/.config/blender/3.4` on
 * Linux, honouring XDG_CONFIG_HOME; `~/Library/Application Support/Blender/3.4` on macOS;
 * `%APPDATA%\Blender Foundation\Blender\3.4` on Windows).
 */
export function userAddonsDir(series: string, o: UserFolderOptions): string {
  const p = o.platform === 'win32' ? path.win32 : path.posix;
  const scripts = o.env.BLENDER_USER_SCRIPTS;
  if (scripts) return p.join(scripts, 'addons');
  if (o.platform === 'win32') {
    const appData = o.env.APPDATA || p.join(o.home, 'AppData', 'Roaming');
    return p.join(appData, 'Blender Foundation', 'Blender', series, 'scripts', 'addons');
  }
  if (o.platform === 'darwin') return p.join(o.home, 'Library', 'Application Support', 'Blender', series, 'scripts', 'addons');
  const config = o.env.XDG_CONFIG_HOME || p.join(o.home, '.config');
  return p.join(config, 'blender', series, 'scripts', 'addons');
}
