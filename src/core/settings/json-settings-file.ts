import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { ensurePrivateFolder } from '../../node-common/private-folder';
import { ConfigError } from '../errors';

/**
 * The OS folder of Renderdrop's settings, the one electron-store and conf use for the project name
 * `renderdrop`: `$XDG_CONFIG_HOME/renderdrop` (or `~/.config/renderdrop`) on Linux,
 * `~/Library/Preferences/renderdrop` on macOS, `%APPDATA%\renderdrop\Config` on Windows.
 */
export function defaultConfigDir(name: string, env: Record<string, string | undefined> = process.env, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', name);
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), name, 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), name);
}

/**
 * A JSON settings file read whole on every access and replaced whole on every write (a temporary file
 * renamed over it, private to this user), in the format conf and electron-store write, so the desktop
 * app and the command line share it. A missing file reads as empty; a file that is not JSON is an
 * error naming it, and is never overwritten.
 */
export class JsonSettingsFile {
  constructor(readonly path: string) {}

  get store(): Record<string, unknown> {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    if (text.trim() === '') return {};
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // reported below
    }
    throw new ConfigError(`Renderdrop's settings file ${this.path} is damaged (not a JSON object). Fix it, or move it away to start with fresh settings.`);
  }

  set store(value: Record<string, unknown>) {
    ensurePrivateFolder(dirname(this.path), 'settings folder');
    const temp = `${this.path}.${process.pid}.tmp`;
    try {
      writeFileSync(temp, `${JSON.stringify(value, undefined, '\t')}\n`, { mode: 0o600 });
      renameSync(temp, this.path);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
  }
}
