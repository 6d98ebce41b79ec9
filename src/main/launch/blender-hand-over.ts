import { startHandoverListener, type HandoverListener } from '../../host/handover';
import type { FileHandOver } from './file-hand-over';

/**
 * Listens for scenes the Blender add-on hands to the running desktop app (see
 * `startHandoverListener`) and passes each down the same path as a file opened with the app. Null when
 * the listener could not start: the add-on then falls back to launching the app or the CLI.
 */
export async function listenForBlender(configDir: string, opened: FileHandOver): Promise<HandoverListener | null> {
  return startHandoverListener({
    configDir,
    deliver: async (scene) => {
      opened.add([scene]);
      return { accepted: true };
    },
  }).catch(() => null);
}
