import { withBlenderWarning } from '../../plan';
import type { JobsRepo } from '../../store';

/** Put the farm's choice of Blender in the job's finalConfig, and its different-blender warning as it now holds. */
export function recordFarmChoice(jobs: JobsRepo, jobId: string, version: string): void {
  const job = jobs.get(jobId);
  if (!job) return;
  const final = typeof job.finalConfig === 'object' && job.finalConfig !== null ? job.finalConfig : {};
  jobs.patch(jobId, { finalConfig: { ...final, blenderVersion: version }, ...(job.analysis ? { analysis: withBlenderWarning(job.analysis, version, false) } : {}) }, false);
}
