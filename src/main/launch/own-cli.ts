import { join } from 'node:path';
import type { CliCommand } from '../../host/host';

/**
 * The command that runs the desktop app's own `renderdrop`: its Electron binary as Node
 * (`ELECTRON_RUN_AS_NODE=1`) on the CLI it ships in `out/cli`. Null for an AppImage, whose files live
 * in a mount that changes at every start (the add-on then looks on PATH).
 */
export function ownCliCommand(options: { appPath: string; execPath: string; env: NodeJS.ProcessEnv }): CliCommand | null {
  if (options.env.APPIMAGE) return null;
  return { command: [options.execPath, join(options.appPath, 'out', 'cli', 'renderdrop.js')], env: { ELECTRON_RUN_AS_NODE: '1' } };
}
