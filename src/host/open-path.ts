import { spawn } from 'node:child_process';
import { withoutSecrets } from '../shared/child-env';

/** Opens a folder in the system's file manager. */
export type OpenPath = (path: string) => Promise<void>;

/** The platform's file manager (`open`, `explorer`, `xdg-open`), started detached. */
export const systemOpenPath: OpenPath = (path) =>
  new Promise((resolve, reject) => {
    const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
    const child = spawn(command, [path], { detached: true, stdio: 'ignore', env: withoutSecrets(process.env) });
    child.once('error', (error) => reject(new Error(`Could not open ${path} with ${command} (${error.message}).`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
