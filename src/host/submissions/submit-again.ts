import { stat } from 'node:fs/promises';
import { InvalidStateError } from '../../core/errors';
import { recordedRenderConfig, type SubmissionRecord } from '../../core/journal';
import { chosenScene } from '../../core/lifecycle';
import { renderConfigSchema, type RenderConfig } from '../../shared/api';

/** What "Submit again" sends to review: the job's scene file, the settings it was rendered with, and the scene of a zip. */
export interface SubmitAgainPlan {
  file: { path: string; name: string };
  renderConfig: RenderConfig | undefined;
  scenePath: string | undefined;
}

/**
 * The settings a job was rendered with: what the server says it was asked for, else what the journal
 * recorded when it was sent; undefined when neither reads as render settings.
 */
export function settingsOfJob(requestedConfig: unknown, record: Pick<SubmissionRecord, 'renderConfig'>): RenderConfig | undefined {
  const requested = renderConfigSchema.safeParse(requestedConfig);
  if (requested.success) return requested.data;
  return recordedRenderConfig(record) ?? undefined;
}

/** Whether a regular file is at `path`. */
async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isFile() ?? false;
}

/**
 * Plans "Submit again" from the journal record of the job (kept across restarts and reloads): the
 * scene file must still be there, else the artist is told it is gone and to drop it again.
 */
export async function planSubmitAgain(input: {
  record: SubmissionRecord | null;
  /** Whether the file is a copy the browser uploaded to Renderdrop (browser mode), not the artist's own file. */
  staged: boolean;
  requestedConfig: unknown;
  exists?: (path: string) => Promise<boolean>;
}): Promise<SubmitAgainPlan> {
  const { record } = input;
  if (!record) throw new InvalidStateError('This job was not sent from Renderdrop on this computer, so its scene file is unknown. Drop the file again to render it once more.');
  const exists = input.exists ?? isFile;
  if (!(await exists(record.file.path))) {
    throw new InvalidStateError(
      input.staged
        ? `The copy of ${record.file.name} sent from the browser has been cleaned up since. Drop the file again to render it once more.`
        : `${record.file.name} is no longer at ${record.file.path}. Drop the file again to render it once more.`,
    );
  }
  return {
    file: { path: record.file.path, name: record.file.name },
    renderConfig: settingsOfJob(input.requestedConfig, record),
    scenePath: chosenScene(record) ?? undefined,
  };
}
