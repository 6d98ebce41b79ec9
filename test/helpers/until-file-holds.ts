import { watch } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Resolves once the file at `path` holds at least `bytes` bytes, told by the file system's change
 * events on its folder (which must exist), not by polling.
 */
export function untilFileHolds(path: string, bytes: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dirname(path));
    let done = false;
    const check = () => {
      void stat(path).then(
        (info) => {
          if (done || info.size < bytes) return;
          done = true;
          watcher.close();
          resolve();
        },
        () => undefined,
      );
    };
    watcher.on('change', check);
    watcher.on('error', (error) => {
      watcher.close();
      reject(error);
    });
    check();
  });
}
