import type { NamespaceHandlers } from '../../namespace-handlers';
import type { ActiveSession } from '../../session';

/** The `workers.*` calls: the active profile's render workers, and blocking one from a job or every job. */
export function workerHandlers({ sessions }: { sessions: ActiveSession }): NamespaceHandlers<'workers'> {
  const studio = async () => (await sessions.services()).studio;
  return {
    'workers.list': async () => (await studio()).workers(),
    'workers.block': async ({ worker, jobId, block }) => (await studio()).block(worker, jobId, block),
  };
}
