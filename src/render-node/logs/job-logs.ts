import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Storage } from '../disk';
import { DEFAULT_LOG_CAP, JobLogFiles, type LogCap, type LogSlice } from './job-log-files';
import { pathStripper, type LogPlace } from './strip-paths';

/** Longest line kept whole, in characters; the rest of a longer line is cut. */
const MAX_LINE_CHARS = 2000;
/** How long lines wait in memory before they are written. */
const FLUSH_MS = 250;

/** Options of {@link JobLogs}. */
export interface JobLogsOptions {
  cap?: LogCap;
  /** The home folder to hide (default: this process's). */
  homeDir?: string;
}

/**
 * What Blender printed for each job (the analysis, the render, and what render workers send), kept in
 * the job's folder (`log/`) with the node's folders replaced by placeholders: the job's folder by
 * `<job>`, the data folder by `<node-data>`, the home folder by `~`. Capped per job (see
 * {@link LogCap}). Lines wait briefly in memory and are written together.
 */
export class JobLogs {
  private readonly files = new Map<string, JobLogFiles>();
  private readonly pending = new Map<string, string[]>();
  private timer: NodeJS.Timeout | null = null;
  private readonly cap: LogCap;
  private readonly homeDir: string;

  constructor(
    private readonly storage: Storage,
    options: JobLogsOptions = {},
  ) {
    this.cap = options.cap ?? DEFAULT_LOG_CAP;
    this.homeDir = options.homeDir ?? homedir();
  }

  /** The placeholders of a job's log. */
  places(jobId: string): LogPlace[] {
    return [
      { path: this.storage.jobDir(jobId), placeholder: '<job>' },
      { path: this.storage.dataDir, placeholder: '<node-data>' },
      { path: this.homeDir, placeholder: '~' },
    ];
  }

  /**
   * A function that adds lines to a job's log, each after `prefix` (e.g. a render worker's name), and
   * `heading` (as {@link section}) before the first of them, so a part that never ran has no heading.
   */
  writer(jobId: string, prefix = '', heading: string | null = null): (line: string) => void {
    const strip = pathStripper(this.places(jobId));
    let headed = heading === null;
    return (line) => {
      if (!headed) {
        headed = true;
        this.section(jobId, heading!);
      }
      const short = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} […]` : line;
      this.push(jobId, `${prefix}${strip(short)}\n`);
    };
  }

  /** Start a part of a job's log (the analysis, a render) with a heading line. */
  section(jobId: string, title: string): void {
    this.push(jobId, `── ${title} ──\n`);
  }

  /** The job's log from byte `since`; an empty log when nothing was written. */
  read(jobId: string, since = 0): LogSlice {
    this.flush(jobId);
    return this.filesOf(jobId).read(since);
  }

  /** Write what waits for one job, or for every job. Errors (a full disk) drop those lines. */
  flush(jobId?: string): void {
    const ids = jobId === undefined ? [...this.pending.keys()] : [jobId];
    for (const id of ids) {
      const lines = this.pending.get(id);
      if (!lines) continue;
      this.pending.delete(id);
      try {
        this.filesOf(id).append(lines);
      } catch {
        this.files.delete(id);
      }
    }
  }

  /** Write everything waiting and stop the timer (the node is closing). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.flush();
  }

  private push(jobId: string, line: string): void {
    const lines = this.pending.get(jobId);
    if (lines) lines.push(line);
    else this.pending.set(jobId, [line]);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.flush();
    }, FLUSH_MS);
    this.timer.unref?.();
  }

  private filesOf(jobId: string): JobLogFiles {
    let files = this.files.get(jobId);
    if (!files) {
      files = new JobLogFiles(join(this.storage.jobDir(jobId), 'log'), this.cap);
      this.files.set(jobId, files);
    }
    return files;
  }
}
