import { formatFrames } from '../../shared/render';
import type { NamespaceHandlers } from '../namespace-handlers';
import type { ActiveSession } from '../session';
import type { OpenPath } from './open-path';
import { removeJobs } from './remove-jobs';

/** What the job calls need. */
export interface JobHandlerDeps {
  sessions: ActiveSession;
  /** Opens a file or folder with the computer's default app. */
  openPath: OpenPath;
}

/** The `jobs.*` calls: the queue, one job's details and frames, cancel, download, check and render again. */
export function jobHandlers({ sessions, openPath }: JobHandlerDeps): NamespaceHandlers<'jobs'> {
  const services = () => sessions.services();
  return {
    'jobs.list': async (query) => (await sessions.active()).jobs(query),
    'jobs.get': async ({ jobId }) => (await services()).details.detail(jobId),
    'jobs.preview': async ({ jobId }) => (await services()).details.preview(jobId),
    'jobs.frames': async ({ jobId }) => (await services()).frameStrip.frames(jobId),
    'jobs.log': async ({ jobId, since }) => (await services()).logs.read(jobId, since),
    'jobs.frameImage': async ({ jobId, frame, thumbnail }) => (await services()).frameStrip.image(jobId, frame, thumbnail ?? false),
    'jobs.openFrame': async ({ jobId, frame }) => {
      const path = await (await services()).frameStrip.pathOf(jobId, frame);
      await openPath(path);
      return path;
    },
    'jobs.refresh': async () => (await sessions.active()).reload(),
    'jobs.sync': async () => (await sessions.active()).sync(),
    'jobs.cancel': async ({ jobId }) => (await sessions.active()).cancel(jobId),
    'jobs.setPriority': async ({ jobId, priority }) => (await sessions.active()).setPriority(jobId, priority),
    'jobs.remove': async ({ jobIds }) => {
      const session = await sessions.active();
      return removeJobs({ jobs: session.services().jobs, cancel: (id) => session.cancel(id) }, jobIds);
    },
    'jobs.download': async ({ jobId }) => (await services()).downloads.download(jobId),
    'jobs.openFolder': async ({ jobId }) => {
      const dir = await (await services()).downloads.ensureJobDir(jobId);
      await openPath(dir);
      return dir;
    },
    'jobs.submitAgain': async ({ jobId }) => (await services()).submissions.submitAgain(jobId),
    'jobs.verifyFolder': async ({ jobId }) => (await services()).frames.verifyFolder(jobId),
    'jobs.renderMissing': async ({ jobId }) => (await services()).frames.renderMissing(jobId),
    'jobs.requeue': async ({ jobId, frames, failed }) => (await sessions.active()).requeue(jobId, failed ? { failed: true } : { frames: [formatFrames(frames ?? [])] }),
  };
}
