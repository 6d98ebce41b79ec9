import type { WorkerInfo } from '../../../shared/api';
import { chooseBlenderVersion } from '../../../shared/blender-versions';
import type { JobRecord } from '../../store';
import { fitsChunk } from '../blender-versions';

/**
 * How many of `workers` can take a job's chunks: connected and with room on their disk, carrying every
 * tag the job requires, able to draw its engine, and with the Blender version its chunks render with
 * (`blender`; before one is chosen, the one the farm would choose among those workers).
 */
export function workersFor(job: Pick<JobRecord, 'requires' | 'renderPlan' | 'analysis'>, blender: string | null, workers: readonly WorkerInfo[]): number {
  const able = workers.filter((w) => w.state !== 'disk-full' && w.state !== 'offline' && fitsChunk(w, { blender: null, engine: job.renderPlan?.engine, requires: job.requires }));
  const version = blender ?? job.renderPlan?.blender ?? chooseBlenderVersion(job.analysis?.savedWithBlender ?? null, able.map((w) => w.blenderVersion));
  return version === null ? 0 : able.filter((w) => w.blenderVersion === version).length;
}
