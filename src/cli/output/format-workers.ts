import type { NodeWorkers, WorkerInfo } from '../../shared/api';
import { describeFrames } from '../../shared/render';
import { countOf, timeAgo } from '../../shared/text';
import { safeText } from '../terminal';
import { formatTable } from './table';

function activity(worker: WorkerInfo): string {
  if (!worker.current && worker.state === 'disk-full') return safeText(worker.reason ?? 'Disk full: it takes no chunks until it has room again.');
  if (!worker.current) return 'idle';
  const frame = worker.current.frame === null ? '' : ` (on ${worker.current.frame})`;
  return `job ${worker.current.jobId.slice(0, 8)} frames ${describeFrames(worker.current.frames)}${frame}`;
}

/** The node's render workers as a table with a summary line, or what to do when there are none. */
export function formatWorkers(view: NodeWorkers, now = new Date()): string[] {
  if (view.mode === 'embedded') {
    const versions = view.blenderVersions?.length ? ` (Blender ${view.blenderVersions.join(', ')})` : '';
    return [`This node renders with its own Blender${versions}; it has no render workers. Start it with --redis <url> to render on workers.`];
  }
  const { chunks } = view;
  const summary = `${countOf(view.workers.length, 'render worker')} on ${view.redis}; chunks: ${chunks.waiting} waiting, ${chunks.active} rendering, ${chunks.delayed} to retry.`;
  if (view.workers.length === 0) return [summary, 'Start one on each render machine: renderdrop node worker --redis <url>'];
  const rows = [['NAME', 'HOST', 'BLENDER', 'DEVICES', 'LAST SEEN', 'FRAMES', 'DOING']];
  for (const w of view.workers) {
    rows.push([w.name, w.host, `${w.blenderVersion}${w.eevee === false ? ' (no EEVEE)' : ''}`, w.devices.join(','), timeAgo(w.lastSeenAt, now), String(w.framesRendered), activity(w)]);
  }
  return [summary, ...formatTable(rows, ['left', 'left', 'left', 'left', 'left', 'right', 'left'])];
}
