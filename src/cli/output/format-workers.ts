import type { NodeWorkers, WorkerBlock, WorkerInfo } from '../../shared/api';
import { describeFrames } from '../../shared/render';
import { countOf, timeAgo } from '../../shared/text';
import { safeText } from '../terminal';
import { formatTimestamp } from './format-jobs';
import { formatTable } from './table';

/** What a worker is doing, in a few words: idle, the job and frames it renders, disk full, offline. */
export function workerStateWords(worker: WorkerInfo): string {
  if (worker.state === 'offline') return `offline${worker.reason ? `: ${safeText(worker.reason)}` : ''}`;
  if (!worker.current && worker.state === 'disk-full') return safeText(worker.reason ?? 'Disk full: it takes no chunks until it has room again.');
  if (!worker.current) return 'idle';
  const frame = worker.current.frame === null ? '' : ` (on ${worker.current.frame})`;
  return `job ${worker.current.jobId.slice(0, 8)} frames ${describeFrames(worker.current.frames)}${frame}`;
}

/** One block in words: "render-02 for job 1f2e3d4c (failed it twice) since 2025-03-14 10:42". */
export function blockWords(block: WorkerBlock): string {
  const what = block.jobId === null ? 'every job' : `job ${block.jobId.slice(0, 8)}`;
  const why = block.by === 'failures' ? 'it failed its frames' : 'by hand';
  return `${safeText(block.worker)} for ${what} (${why}) since ${formatTimestamp(block.since)}`;
}

/** The node's render workers as a table with a summary line and the blocks, or what to do when there are none. */
export function formatWorkers(view: NodeWorkers, now = new Date()): string[] {
  if (view.mode === 'embedded') {
    const versions = view.blenderVersions?.length ? ` (Blender ${view.blenderVersions.join(', ')})` : '';
    const tags = view.tags?.length ? ` Its tags: ${view.tags.join(', ')}.` : '';
    return [`This node renders with its own Blender${versions}; it has no render workers. Start it with --redis <url> to render on workers.${tags}`];
  }
  const { chunks } = view;
  const offline = view.workers.filter((w) => w.state === 'offline').length;
  const count = `${countOf(view.workers.length - offline, 'render worker')}${offline > 0 ? ` (and ${offline} offline)` : ''}`;
  const summary = `${count} on ${view.redis}; chunks: ${chunks.waiting} waiting, ${chunks.active} rendering, ${chunks.delayed} to retry.`;
  const blocks = view.blocks ?? [];
  const blockLines = blocks.length > 0 ? ['', 'Blocked:', ...blocks.map((b) => `  ${blockWords(b)}`)] : [];
  if (view.workers.length === 0) return [summary, 'Start one on each render machine: renderdrop node worker --redis <url>', ...blockLines];
  const rows = [['NAME', 'HOST', 'TAGS', 'BLENDER', 'DEVICES', 'LAST SEEN', 'FRAMES', 'FAILURES', 'DOING']];
  for (const w of view.workers) {
    rows.push([
      safeText(w.name),
      safeText(w.host),
      w.tags?.length ? w.tags.join(',') : '-',
      `${w.blenderVersion}${w.eevee === false ? ' (no EEVEE)' : ''}`,
      w.devices.join(','),
      timeAgo(w.lastSeenAt, now),
      String(w.framesRendered),
      w.chunksFailed === undefined ? '-' : String(w.chunksFailed),
      workerStateWords(w),
    ]);
  }
  return [summary, ...formatTable(rows, ['left', 'left', 'left', 'left', 'left', 'left', 'right', 'right', 'left']), ...blockLines];
}
