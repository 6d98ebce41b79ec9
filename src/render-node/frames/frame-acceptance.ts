import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { checkImageFile } from '../../node-common/images';

/** Where render.py writes frames before moving them into place. */
export const PARTIAL_DIR = '.partial';

/** Whether a frame file is whole; `reason` says what is wrong with it when not. */
export type FrameVerdict = { ok: true } | { ok: false; reason: string };

/**
 * Check a rendered frame before it counts: it must exist, be non-empty and, in every format the node
 * can read the structure of, be whole to its end (Blender reports a frame saved even when the disk
 * filled up while writing it).
 */
export async function verifyFrame(path: string): Promise<FrameVerdict> {
  const st = await stat(path).catch(() => null);
  if (!st?.isFile()) return { ok: false, reason: 'the file is missing' };
  if (st.size === 0) return { ok: false, reason: 'the file is empty' };
  const check = await checkImageFile(path);
  return check.status === 'incomplete' ? { ok: false, reason: check.reason } : { ok: true };
}

/** Where accepted frames are recorded (the jobs repository, or a distributed job's ledger). */
export interface FrameLedger {
  recordFrame(jobId: string, frame: number, filePath: string, seconds: number, worker?: string | null): number;
}

/** A frame to accept: the file a render reported for a frame of a job. */
export interface FrameReport {
  jobId: string;
  frame: number;
  path: string;
  seconds: number;
  /** The render worker that rendered it (absent or null: the node's own Blender). */
  worker?: string | null;
}

export type FrameAcceptance = { accepted: true; completedFrames: number } | { accepted: false; reason: string };

/**
 * Record a frame only once its file is whole; an incomplete file is removed so that the frame is
 * rendered again. Errors of the ledger (a full database) are left to the caller.
 */
export async function acceptFrame(ledger: FrameLedger, report: FrameReport): Promise<FrameAcceptance> {
  const verdict = await verifyFrame(report.path);
  if (!verdict.ok) {
    await rm(report.path, { force: true });
    return { accepted: false, reason: verdict.reason };
  }
  return { accepted: true, completedFrames: ledger.recordFrame(report.jobId, report.frame, report.path, report.seconds, report.worker ?? null) };
}

/**
 * After a render was stopped (a cancel): count the frames Blender finished writing that the node had
 * not yet heard of, so that what a stopped job lists is what its folder holds. `namesOf` gives the file
 * names a frame may have; files that are not whole are removed. Returns how many frames were counted.
 */
export async function acceptWrittenFrames(ledger: FrameLedger, jobId: string, outputDir: string, frames: readonly number[], namesOf: (frame: number) => string[]): Promise<number> {
  const present = new Set(await readdir(outputDir).catch(() => []));
  let counted = 0;
  for (const frame of frames) {
    const name = namesOf(frame).find((candidate) => present.has(candidate));
    if (name === undefined) continue;
    if ((await acceptFrame(ledger, { jobId, frame, path: join(outputDir, name), seconds: 0 })).accepted) counted++;
  }
  return counted;
}

/**
 * Before a render starts or resumes in `outputDir`: remove what an interrupted run left there (the
 * partial folder, and frame files that are not whole), so that a resumed render keeps only complete
 * frames and renders the others again. Files in `accepted` (already checked) are not read again.
 * Returns the paths of the frame files removed.
 */
export async function removeIncompleteFrames(outputDir: string, accepted: ReadonlySet<string> = new Set()): Promise<string[]> {
  await rm(join(outputDir, PARTIAL_DIR), { recursive: true, force: true });
  const entries = await readdir(outputDir, { withFileTypes: true }).catch(() => []);
  const removed: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || entry.name.startsWith('.')) continue;
    const path = join(outputDir, entry.name);
    if (accepted.has(path) || (await verifyFrame(path)).ok) continue;
    await rm(path, { force: true });
    removed.push(path);
  }
  return removed;
}
