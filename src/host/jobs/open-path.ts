import { spawn } from 'node:child_process';
import { withoutSecrets } from '../../shared/security';

/** Opens a folder in the system's file manager (or a file in its default application). */
export type OpenPath = (path: string) => Promise<void>;

/** How long an opener has to fail before it counts as started. */
const SETTLE_MS = 1500;

/** The platform's opener: `open` on macOS, `explorer` on Windows, `xdg-open` elsewhere. */
export function platformOpener(platform: NodeJS.Platform = process.platform): string {
  return platform === 'darwin' ? 'open' : platform === 'win32' ? 'explorer' : 'xdg-open';
}

/**
 * Opens `path` with `command`, started detached. Fails, saying why in plain words and naming the path,
 * when the command is missing or exits with an error at once (e.g. no desktop session to show a
 * window in, as on a server the app runs on in browser mode).
 */
export function openPathWith(command: string, settleMs = SETTLE_MS): OpenPath {
  return (path) =>
    new Promise((resolve, reject) => {
      const child = spawn(command, [path], { detached: true, stdio: 'ignore', env: withoutSecrets(process.env) });
      let timer: ReturnType<typeof setTimeout> | null = null;
      const done = (error: Error | null) => {
        if (timer) clearTimeout(timer);
        child.removeAllListeners();
        child.unref();
        if (error) reject(error);
        else resolve();
      };
      child.once('error', (error: NodeJS.ErrnoException) => {
        const why = error.code === 'ENOENT' ? `this computer has no ${command} to open folders with` : error.message;
        done(new Error(`Could not open ${path}: ${why}. Open it in your file manager.`));
      });
      child.once('spawn', () => {
        timer = setTimeout(() => done(null), settleMs);
      });
      child.once('exit', (code) => {
        if (code === 0 || code === null) done(null);
        else done(new Error(`Could not open ${path}: this computer has no file manager or desktop session to show it in. Open it in your file manager.`));
      });
    });
}

/** The platform's file manager, started detached. */
export const systemOpenPath: OpenPath = (path) => openPathWith(platformOpener())(path);
