import { basename } from 'node:path';
import { serializeError } from '../../core/errors';
import type { RenderConfig } from '../../shared/api';
import type { SubmitFile, SubmitFileResult } from '../../shared/contract';
import type { Profile } from '../../shared/settings';
import type { NamespaceHandlers } from '../namespace-handlers';
import type { ActiveSession } from '../session';
import type { ProfileBackend } from '../profiles';
import type { StagedFiles } from './staged-files';

/** What the submission calls need. */
export interface SubmissionHandlerDeps {
  sessions: ActiveSession;
  staged: StagedFiles;
  backendFor: (profile: Profile) => ProfileBackend;
  /** Called after a submission of which at least one file was accepted. */
  submitted: () => Promise<void>;
}

/** A file ready to submit: the artist's own, or an upload staged by browser mode. */
interface ReadyFile {
  path: string;
  name: string;
  staged: boolean;
}

/** The `submissions.*` calls: submit files, and review, start, fix or drop the submissions under way. */
export function submissionHandlers(deps: SubmissionHandlerDeps): NamespaceHandlers<'submissions'> {
  const { sessions } = deps;
  const services = () => sessions.services();
  return {
    'submissions.submit': ({ files, renderConfig }) => submitFiles(deps, files, renderConfig),
    'submissions.list': async () => (await sessions.active()).submissions(),
    'submissions.review': async ({ submissionId }) => (await services()).submissions.review(submissionId),
    'submissions.startRender': async ({ submissionId, renderConfig }) => (await services()).submissions.startRender(submissionId, renderConfig),
    'submissions.chooseScene': async ({ submissionId, scenePath }) => (await services()).submissions.chooseScene(submissionId, scenePath),
    'submissions.discard': async ({ submissionId }) => (await services()).submissions.discard(submissionId),
    'submissions.continue': async ({ submissionId, privateFiles, project }) => (await services()).submissions.continue(submissionId, privateFiles, project),
    'submissions.retry': async ({ submissionId }) => (await services()).submissions.retry(submissionId),
    'submissions.dismiss': async ({ submissionId }) => (await services()).submissions.dismiss(submissionId),
  };
}

/**
 * Submits files to the active profile: one result per file, those submitted first, then those
 * refused before sending (an unknown upload token). Staged uploads that were not accepted are removed.
 */
async function submitFiles(deps: SubmissionHandlerDeps, files: SubmitFile[], renderConfig: RenderConfig | undefined): Promise<SubmitFileResult[]> {
  const { ready, refused } = await resolveFiles(deps.staged, files);
  let submitted: SubmitFileResult[] = [];
  try {
    const current = await deps.sessions.active();
    const refusal = deps.backendFor(current.profile).submitRefusal();
    if (refusal) throw refusal;
    submitted = await current.services().submissions.submit(ready, renderConfig);
  } finally {
    const accepted = new Set(ready.filter((_, i) => submitted[i]?.ok).map((file) => file.path));
    await Promise.all(ready.filter((file) => file.staged && !accepted.has(file.path)).map((file) => deps.staged.remove(file.path)));
  }
  const results = [...submitted, ...refused];
  if (results.some((r) => r.ok)) await deps.submitted();
  return results;
}

/** The path of each file (a staged upload's from its token), and a refusal for each that has none. */
async function resolveFiles(staged: StagedFiles, files: SubmitFile[]): Promise<{ ready: ReadyFile[]; refused: SubmitFileResult[] }> {
  const ready: ReadyFile[] = [];
  const refused: SubmitFileResult[] = [];
  for (const file of files) {
    try {
      const path = 'path' in file ? file.path : await staged.resolve(file.token);
      ready.push({ path, name: basename(path), staged: !('path' in file) });
    } catch (error) {
      refused.push({ ok: false, name: 'path' in file ? basename(file.path) : 'uploaded file', error: serializeError(error) });
    }
  }
  return { ready, refused };
}
