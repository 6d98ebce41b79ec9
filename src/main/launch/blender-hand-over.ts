import { handedOverProgress, startHandoverListener, submitHandedOver, type HandoverListener } from '../../host/handover';
import type { ContractHandlers } from '../../shared/contract';

/**
 * Listens for scenes the Blender add-on hands to the running desktop app (see
 * `startHandoverListener`), submits each as a dropped file is (the window comes forward), and answers
 * with its submission, which the add-on then follows. Null when the listener could not start: the
 * add-on then uses the CLI.
 */
export async function listenForBlender(configDir: string, deps: { handlers: ContractHandlers; showWindow: () => void }): Promise<HandoverListener | null> {
  return startHandoverListener({
    configDir,
    deliver: async (scene) => {
      deps.showWindow();
      return submitHandedOver(deps.handlers['submissions.submit'], scene);
    },
    progress: handedOverProgress(deps.handlers),
  }).catch(() => null);
}
