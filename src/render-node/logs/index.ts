/** What other rooms of render-node use of render-node/logs: the room's public surface. */
export { JobLogs } from './job-logs';
export { withRenderErrors } from './render-errors';
export { pathStripper } from './strip-paths';
export { receiveWorkerLog, workerLabel } from './worker-log-intake';
