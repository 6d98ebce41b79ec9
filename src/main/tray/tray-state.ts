import type { JobSummary } from '../../shared/contract';
import type { ActivitySnapshot } from '../activity';

/** How the tray icon looks. */
export type TrayLook = 'idle' | 'active' | 'error';

/** One active job as the tray menu lists it. */
export interface TrayJob {
  id: string;
  label: string;
}

/** Everything the tray, the taskbar progress and the badge show. */
export interface TrayState {
  look: TrayLook;
  tooltip: string;
  /** Active jobs plus files still uploading. */
  activeCount: number;
  /** Overall progress of the active jobs in percent, null when no job knows its frames yet. */
  percent: number | null;
  /** At most {@link MAX_TRAY_JOBS} active jobs, oldest first. */
  jobs: TrayJob[];
  /** More active jobs than listed. */
  moreJobs: number;
  /** Taskbar/dock progress: -1 none, 0..1 a fraction, 2 busy without a known fraction. */
  progress: number;
  /** Badge count of active work (0 clears it). */
  badge: number;
}

/** Most active jobs the tray menu lists. */
export const MAX_TRAY_JOBS = 8;

/** Windows cuts tray tooltips at 127 characters. */
const MAX_TOOLTIP = 127;

const ERROR_STATES = new Set(['unreachable', 'key-rejected', 'no-key', 'blender-missing']);

const STATUS_WORDS: Partial<Record<JobSummary['status'], string>> = {
  created: 'waiting',
  validating: 'validating',
  booting: 'starting',
  rendering: 'rendering',
  finalizing: 'finalizing',
  debugging: 'debugging',
  suspended: 'suspended',
};

/** A job's progress in percent, or null before it knows its frames. */
export function jobPercent(job: Pick<JobSummary, 'completedFrames' | 'totalFrames'>): number | null {
  if (job.totalFrames <= 0) return null;
  return Math.min(100, Math.floor((job.completedFrames / job.totalFrames) * 100));
}

function jobLabel(job: JobSummary): string {
  const status = STATUS_WORDS[job.status] ?? job.status;
  const percent = jobPercent(job);
  const frames = job.totalFrames > 0 ? ` ${job.completedFrames}/${job.totalFrames} (${percent} %)` : '';
  return `${job.fileName}: ${status}${frames}`;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * The tray's look and words from what the app is doing: an error when the server cannot be used or
 * a render failed unseen, else active with the count and overall frame progress, else idle.
 */
export function trayState(snapshot: ActivitySnapshot): TrayState {
  const jobs = snapshot.activeJobs;
  const activeCount = jobs.length + snapshot.uploads;
  let done = 0;
  let total = 0;
  for (const job of jobs) {
    if (job.totalFrames <= 0) continue;
    done += Math.min(job.completedFrames, job.totalFrames);
    total += job.totalFrames;
  }
  const percent = total > 0 ? Math.floor((done / total) * 100) : null;
  const busy = activeCount > 0 || snapshot.downloads > 0;

  const problem = snapshot.connection && ERROR_STATES.has(snapshot.connection.state) && 'message' in snapshot.connection ? snapshot.connection.message : null;
  const failures = snapshot.unseenFailures > 0 ? (snapshot.unseenFailures === 1 ? 'A render failed.' : `${snapshot.unseenFailures} renders failed.`) : null;
  const look: TrayLook = problem || failures ? 'error' : busy ? 'active' : 'idle';

  const parts: string[] = [];
  if (activeCount > 0) parts.push(`${activeCount} active${percent !== null ? `, ${percent} %` : ''}`);
  else if (snapshot.downloads > 0) parts.push(`downloading ${snapshot.downloads === 1 ? '1 job' : `${snapshot.downloads} jobs`}`);
  if (failures) parts.push(failures);
  if (problem) parts.push(problem);
  if (parts.length === 0) parts.push('idle');

  return {
    look,
    tooltip: clip(`Renderdrop: ${parts.join(' · ')}`, MAX_TOOLTIP),
    activeCount,
    percent,
    jobs: jobs.slice(0, MAX_TRAY_JOBS).map((job) => ({ id: job.id, label: clip(jobLabel(job), 80) })),
    moreJobs: Math.max(0, jobs.length - MAX_TRAY_JOBS),
    progress: !busy ? -1 : percent !== null && jobs.length > 0 ? percent / 100 : 2,
    badge: activeCount,
  };
}
