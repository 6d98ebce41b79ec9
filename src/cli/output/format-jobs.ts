import { type Job, type JobList, type ProgressRecord, adjustmentsOf, progressOf, sceneNameOf, statusMessageOf, studioOf } from '../../shared/api';
import { clockFact, clockShortText, jobEstimateText, renderClockOf, renderTimingOf } from '../../shared/render';
import { countOf, formatDuration, priorityWords } from '../../shared/text';
import { formatFrameProgress } from './format-progress';
import { safeText } from '../terminal';
import { isPlainRecord } from '../../shared/plain-record';
import { displayWidth, formatPairs, formatTable, truncate } from './table';

/** Local date and time to the minute, e.g. `2025-03-14 09:26`; the input as is when unreadable. */
export function formatTimestamp(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

/** How a listed page is shown: the status filter and the page that was asked for (default 1). */
export interface JobListOptions {
  status?: string;
  page?: number;
}

/**
 * One page of jobs as an aligned table (time: waiting, rendering with time left, or rendering time) with a footer: the count, and the page with a hint to the next
 * one when there are several. The page shown is the one asked for, whatever page number the server
 * echoes (some count from 0).
 */
export function formatJobList(list: JobList, options: JobListOptions = {}, now = Date.now()): string[] {
  const page = options.page ?? 1;
  const { totalPages, total } = list.pagination;
  const filter = options.status ? ` --status ${options.status}` : '';
  if (list.jobs.length === 0) {
    const what = options.status ? `No ${options.status} jobs` : 'No jobs';
    return [total > 0 ? `${what} on page ${page} (${total} in all).` : `${what}.`];
  }
  const rows = [['ID', 'STATUS', 'FRAMES', 'TIME', 'CREATED', 'SCENE']];
  for (const job of list.jobs) {
    const progress = progressOf(job);
    rows.push([
      job.id,
      job.status,
      progress && progress.totalFrames > 0 ? `${progress.completedFrames}/${progress.totalFrames}` : '-',
      clockShortText(renderClockOf(renderTimingOf(job), now)),
      formatTimestamp(job.createdAt),
      truncate(safeText(sceneNameOf(job) ?? '-'), 40),
    ]);
  }
  const lines = formatTable(rows, ['left', 'left', 'right', 'left', 'left', 'left']);
  const count = `${countOf(total, 'job')}${options.status ? ` ${options.status}` : ''}`;
  if (totalPages <= 1 && page === 1) return [...lines, '', `${count}.`];
  const of = totalPages >= page ? ` of ${totalPages}` : '';
  const next = page < totalPages ? ` Next: renderdrop jobs --page ${page + 1}${filter}` : '';
  return [...lines, '', `Page ${page}${of}, ${count}.${next}`];
}

/** One job in detail: status with frames, scene, times (waiting, rendering, time left), render time, failure and node adjustments. */
export function formatJobDetails(job: Job, progress: ProgressRecord | null, now = Date.now()): string[] {
  const frames = progress ?? progressOf(job);
  const status = frames && frames.totalFrames > 0 ? `${job.status}  ${formatFrameProgress(frames.completedFrames, frames.totalFrames)}` : job.status;
  const rows: [string, string][] = [
    ['Job', job.id],
    ['Status', status],
  ];
  const clock = renderClockOf(renderTimingOf(job), now);
  const note = statusMessageOf(job);
  if (note && !(clock.phase === 'waiting' && clock.reason === note)) rows.push(['Note', safeText(note)]);
  const studio = studioOf(job);
  if (studio.priority !== null) rows.push(['Priority', priorityWords(studio.priority)]);
  if (studio.requires.length > 0) rows.push(['Needs tags', studio.requires.join(', ')]);
  const scene = sceneNameOf(job);
  if (scene) rows.push(['Scene', scene]);
  rows.push(['Created', formatTimestamp(job.createdAt)], ['Updated', formatTimestamp(job.updatedAt)]);
  const counted = frames && job.status !== 'completed' ? { completedFrames: frames.completedFrames, totalFrames: frames.totalFrames } : {};
  const timing = { ...renderTimingOf(job), ...counted };
  rows.push(['Time', safeText(clockFact(renderClockOf(timing, now)).text)]);
  const estimate = jobEstimateText(job);
  if (estimate) rows.push(['Estimate', estimate]);
  if (typeof job.normalizedSeconds === 'number' && job.normalizedSeconds > 0) rows.push(['Render time', `${job.normalizedSeconds < 60 ? `${job.normalizedSeconds.toFixed(1)} s` : formatDuration(job.normalizedSeconds)} (normalized)`]);
  const config = summarizeConfig(job.finalConfig ?? job.requestedConfig);
  if (config) rows.push(['Settings', config]);
  let failureMore: string[] = [];
  if (job.failedReason) {
    const reason = job.failedReason;
    const text = safeText(`${reason.name} (${reason.type})${reason.message ? `: ${reason.message}` : ''}`, { multiline: true });
    const [first = '', ...more] = text.split('\n');
    rows.push(['Failed', first]);
    failureMore = more;
  }
  const lines = formatPairs(rows, '');
  const valueIndent = ' '.repeat(Math.max(...rows.map(([label]) => displayWidth(label))) + 2);
  lines.push(...failureMore.map((line) => `${valueIndent}${line}`.trimEnd()));
  const adjustments = adjustmentReasonsOf(job);
  if (adjustments.length > 0) lines.push('Adjusted by the server:', ...adjustments.map((a) => `  - ${a}`));
  if ((job.status === 'failed' || job.status === 'canceled') && frames && frames.completedFrames > 0) {
    const n = frames.completedFrames;
    lines.push(safeText(`${n} ${n === 1 ? 'frame was' : 'frames were'} rendered before it stopped: \`renderdrop download ${job.id}\` fetches ${n === 1 ? 'it' : 'them'}, \`renderdrop verify ${job.id} --fix\` renders the rest.`));
  }
  return lines;
}

/** The reasons of the changes a server made to the requested configuration (`finalConfig.adjustments`), safe to print. */
export function adjustmentReasonsOf(job: Job): string[] {
  return adjustmentsOf(job.finalConfig).flatMap(({ reason }) => {
    const text = reason !== null ? safeText(reason) : '';
    return text !== '' ? [text] : [];
  });
}

function summarizeConfig(config: unknown): string | null {
  if (!isPlainRecord(config)) return null;
  const c = config;
  const parts: string[] = [];
  if (Array.isArray(c.frameRanges) && c.frameRanges.length > 0) parts.push(`frames ${c.frameRanges.join(',')}`);
  if (typeof c.sampleCount === 'number') parts.push(`${c.sampleCount} samples`);
  if (typeof c.resolutionPercentage === 'number') parts.push(`${c.resolutionPercentage}%`);
  if (typeof c.activeCamera === 'string') parts.push(`camera ${c.activeCamera}`);
  if (typeof c.outputFormat === 'string') parts.push(c.outputFormat);
  if (typeof c.colorManagementPreset === 'string') parts.push(`${c.colorManagementPreset} colour`);
  return parts.length > 0 ? parts.join(', ') : null;
}
