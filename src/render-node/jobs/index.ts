/** What other rooms of render-node use of render-node/jobs: the room's public surface. */
export { framesZipName, listFiles } from './job-files';
export { JobRunner } from './job-runner';
export type { ExecutorOutcome, RenderExecutor, RenderTask } from './render-executor';
export { requeueEndedJob, type RequeueDeps } from './requeue-job';
