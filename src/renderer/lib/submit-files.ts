import { call, prepareFile } from '../bridge/bridge';
import { useSubmissionsStore } from '../stores/submissions-store';

let counter = 0;

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
