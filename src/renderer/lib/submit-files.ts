import { call, prepareFile } from '../bridge';
import type { SubmitFileResult } from '../../shared/contract';
import { useSubmissionsStore } from '../stores';

let counter = 0;

/** A scene picked in the file browser: where it is on this computer. */
export interface PickedScene {
  name: string;
  path: string;
  size: number;
}

/**
 * Submits dropped or picked files one by one: each appears at once in the drop tray, is handed to the
 * back end (streamed first in browser mode), and is either accepted (its submission takes over) or
 * shows why it was refused, where it was dropped.
 */
export async function submitFiles(files: readonly File[]): Promise<void> {
  const keys = showInTray('drop', files);
  for (const [index, file] of files.entries()) {
    const key = keys[index]!;
    const update = useSubmissionsStore.getState().updateDropped;
    const prepared = await prepareFile(file, (sent) => update(key, { sent }));
    if (!prepared.ok) {
      update(key, { status: 'rejected', error: prepared.error.message });
      continue;
    }
    const result = await call('submissions.submit', { files: [prepared.value] });
    if (!result.ok) {
      update(key, { status: 'rejected', error: result.error.message });
      continue;
    }
    const [answer] = result.value;
    settle(key, answer, file.size);
  }
}

/**
 * Submits scenes picked in the file browser by their path on this computer, so the back end reads each
 * with the folder around it; each shows in the drop tray until the back end takes it or says why not.
 */
export async function submitPaths(scenes: readonly PickedScene[]): Promise<void> {
  const keys = showInTray('pick', scenes);
  const result = await call('submissions.submit', { files: scenes.map((scene) => ({ path: scene.path })) });
  const update = useSubmissionsStore.getState().updateDropped;
  scenes.forEach((scene, index) => {
    const key = keys[index]!;
    if (!result.ok) return update(key, { status: 'rejected', error: result.error.message });
    settle(key, result.value[index], scene.size);
  });
}

/** Shows each file in the drop tray as being sent (as one batch when there are several); their tray keys. */
function showInTray(kind: 'drop' | 'pick', files: readonly { name: string; size: number }[]): string[] {
  const store = useSubmissionsStore.getState();
  const keys = files.map((file) => {
    const key = `${kind}-${Date.now()}-${counter++}`;
    store.addDropped({ key, name: file.name, size: file.size, status: 'sending', sent: 0, error: null, submissionId: null });
    return key;
  });
  if (keys.length > 1) store.setBatch(keys);
  return keys;
}

/** A tray entry once the back end answered for its file: taken over by its submission, or refused with why. */
function settle(key: string, answer: SubmitFileResult | undefined, size: number): void {
  const update = useSubmissionsStore.getState().updateDropped;
  if (!answer) update(key, { status: 'rejected', error: 'The back end did not answer for this file.' });
  else if (answer.ok) update(key, { status: 'accepted', submissionId: answer.submissionId, sent: size });
  else update(key, { status: 'rejected', error: answer.error.message });
}
