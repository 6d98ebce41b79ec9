import type { NodeWorkers } from '../api';

/**
 * The render workers of the active profile's farm for the Workers view: the node's list with the
 * names of the jobs they render, or why there is no list (a farm that is not a Renderdrop node).
 */
export type FarmWorkersView =
  | {
      supported: true;
      view: NodeWorkers;
      /** The queue's name of each job a worker renders or is blocked from, by job id (jobs not in the queue are left out). */
      jobNames: Record<string, string>;
      /** When the list was read (ISO time): "last seen" is counted from it. */
      readAt: string;
    }
  | { supported: false; message: string };
