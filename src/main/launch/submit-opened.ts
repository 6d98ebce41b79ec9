import { basename } from 'node:path';
import { serializeError } from '../../core/errors';
import type { ContractHandlers, SubmitFileResult } from '../../shared/contract';
import type { ShellWindow } from '../window';

type Refused = Extract<SubmitFileResult, { ok: false }>;

/**
 * Submits scene files opened with the app (file manager, command line, a second launch) and shows
 * the window; a message box says which files were not submitted, and why.
 */
export async function submitOpenedFiles(files: string[], deps: { submit: ContractHandlers['submissions.submit']; window: ShellWindow }): Promise<void> {
  deps.window.show();
  let results: SubmitFileResult[];
  try {
    results = await deps.submit({ files: files.map((path) => ({ path })) });
  } catch (error) {
    results = files.map((path) => ({ ok: false, name: basename(path), error: serializeError(error) }));
  }
  const refused = results.filter((r): r is Refused => !r.ok);
  if (refused.length === 0) return;
  await deps.window.messageBox({
    type: 'warning',
    message: refused.length === 1 ? `${refused[0]!.name} was not submitted.` : `${refused.length} files were not submitted.`,
    detail: refused.map((r) => `${r.name}: ${r.error.message}`).join('\n'),
  });
}
