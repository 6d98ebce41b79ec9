import { jobSchema, nodeWorkersSchema, type Job, type JobSettingsPatch, type NodeWorkers, type RequeueRequest, type WorkerBlockRequest } from '../../shared/api';
import type { ApiClient, CallOptions } from './api-client';

/**
 * The calls of a Renderdrop node's studio extensions (priorities, required tags, requeue, worker
 * blocks). A farm without them answers 404, which reaches the caller as the client's not-found error.
 */
const segment = (id: string) => encodeURIComponent(id);

/** `POST /node/jobs/{id}/settings`: change a job's priority or required tags while it has not ended. */
export function updateJobSettings(api: ApiClient, id: string, patch: JobSettingsPatch, options: CallOptions = {}): Promise<Job> {
  return api.callNode(
    { name: 'POST /node/jobs/{id}/settings', method: 'POST', path: `node/jobs/${segment(id)}/settings`, safety: 'idempotent', subject: `job ${id}`, action: `change the settings of job ${id}`, schema: jobSchema, json: patch },
    options,
  );
}

/** `POST /node/jobs/{id}/requeue`: render frames of a job again inside the same job. */
export function requeueJob(api: ApiClient, id: string, request: RequeueRequest, options: CallOptions = {}): Promise<Job> {
  return api.callNode(
    { name: 'POST /node/jobs/{id}/requeue', method: 'POST', path: `node/jobs/${segment(id)}/requeue`, safety: 'write', subject: `job ${id}`, action: `render frames of job ${id} again`, schema: jobSchema, json: request },
    options,
  );
}

/** `POST /node/workers/block` or `/unblock`: keep a worker from a job (or every job), or let it take them again; answers the worker list. */
export function setWorkerBlock(api: ApiClient, block: boolean, request: WorkerBlockRequest, options: CallOptions = {}): Promise<NodeWorkers> {
  const verb = block ? 'block' : 'unblock';
  return api.callNode(
    { name: `POST /node/workers/${verb}`, method: 'POST', path: `node/workers/${verb}`, safety: 'idempotent', subject: `worker ${request.worker}`, action: `${verb} worker ${request.worker}`, schema: nodeWorkersSchema, json: request },
    options,
  );
}
