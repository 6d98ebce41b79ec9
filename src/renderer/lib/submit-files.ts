import { call, prepareFile } from '../bridge/bridge';
import { useSubmissionsStore } from '../stores/submissions-store';

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
  const store = useSubmissionsStore.getState();
  const entries = files.map((file) => {
    const key = `drop-${Date.now()}-${counter++}`;
    store.addDropped({ key, name: file.name, size: file.size, status: 'sending', sent: 0, error: null, submissionId: null });
    return { key, file };
  });
  if (entries.length > 1) store.setBatch(entries.map((e) => e.key));
  for (const { key, file } of entries) {
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
    if (!answer) update(key, { status: 'rejected', error: 'The back end did not answer for this file.' });
    else if (answer.ok) update(key, { status: 'accepted', submissionId: answer.submissionId, sent: file.size });
    else update(key, { status: 'rejected', error: answer.error.message });
  }
}

/**
 * Submits scenes picked in the file browser by their path on this computer, so the back end reads each
 * with the folder around it; each shows in the drop tray until the back end takes it or says why not.
 */
export async function submitPaths(scenes: readonly PickedScene[]): Promise<void> {
  const store = useSubmissionsStore.getState();
  const entries = scenes.map((scene) => {
    const key = `pick-${Date.now()}-${counter++}`;
    store.addDropped({ key, name: scene.name, size: scene.size, status: 'sending', sent: 0, error: null, submissionId: null });
    return { key, scene };
  });
  if (entries.length > 1) store.setBatch(entries.map((e) => e.key));
  const result = await call('submissions.submit', { files: scenes.map((scene) => ({ path: scene.path })) });
  const update = useSubmissionsStore.getState().updateDropped;
  entries.forEach(({ key, scene }, index) => {
    if (!result.ok) return update(key, { status: 'rejected', error: result.error.message });
    const answer = result.value[index];
    if (!answer) update(key, { status: 'rejected', error: 'The back end did not answer for this file.' });
    else if (answer.ok) update(key, { status: 'accepted', submissionId: answer.submissionId, sent: scene.size });
    else update(key, { status: 'rejected', error: answer.error.message });
  });
}
