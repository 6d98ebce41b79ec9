import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { checkImageFile } from '../../node-common/images';
import { frameFileName, frameOfName, namingOf, type FrameNaming } from './frame-names';

/** A frame file that is there but cannot be used, and why (in words for people). */
export interface BrokenFrame {
  frame: number;
  fileName: string;
  reason: string;
}

/** What a job's download folder holds against the frames the job renders. */
export interface FolderCheck {
  folder: string;
  /** How many frames the job renders. */
  expected: number;
  /** Frames whose file is whole. */
  present: number[];
  /** Frames with no file. */
  missing: number[];
  /** Frames whose file is empty or does not decode. */
  broken: BrokenFrame[];
  /** How the frame files are named (null when neither the server nor the folder says). */
  naming: FrameNaming | null;
}

/** What to check a folder against. */
export interface FolderExpectation {
  folder: string;
  frames: readonly number[];
  /** The frame files the server lists, by frame (their names give the naming). */
  listed: ReadonlyMap<number, string>;
}

/**
 * Checks a download folder frame by frame: a frame's file is found by the name the server lists, else
 * by the naming of the other frames (from the server, else from the numbered image files in the
 * folder); it must be there, not empty, and whole to its end in the formats that can be checked.
 */
export async function checkFolder(expect: FolderExpectation): Promise<FolderCheck> {
  const entries = await readdir(expect.folder, { withFileTypes: true }).catch(() => []);
  const files = entries.filter((e) => e.isFile() && !e.name.endsWith('.part')).map((e) => e.name);
  const naming = namingFrom([...expect.listed.values()]) ?? namingFrom(files);
  const byFrame = new Map<number, string>();
  if (naming) {
    for (const name of files) {
      const frame = frameOfName(naming, name);
      if (frame !== null && !byFrame.has(frame)) byFrame.set(frame, name);
    }
  }
  const check: FolderCheck = { folder: expect.folder, expected: expect.frames.length, present: [], missing: [], broken: [], naming };
  for (const frame of expect.frames) {
    const listed = expect.listed.get(frame);
    const name = listed !== undefined && files.includes(listed) ? listed : (byFrame.get(frame) ?? null);
    if (name === null) {
      check.missing.push(frame);
      continue;
    }
    const reason = await problemOf(join(expect.folder, name));
    if (reason === null) check.present.push(frame);
    else check.broken.push({ frame, fileName: name, reason });
  }
  return check;
}

/** The file name a frame should have in a checked folder (null when the naming is unknown). */
export function expectedFileName(check: Pick<FolderCheck, 'naming'>, listed: ReadonlyMap<number, string>, frame: number): string | null {
  return listed.get(frame) ?? (check.naming ? frameFileName(check.naming, frame) : null);
}

function namingFrom(names: readonly string[]): FrameNaming | null {
  for (const name of names) {
    const parsed = namingOf(name);
    if (parsed) return parsed.naming;
  }
  return null;
}

async function problemOf(path: string): Promise<string | null> {
  const st = await stat(path).catch(() => null);
  if (!st?.isFile()) return 'the file is missing';
  if (st.size === 0) return 'the file is empty';
  const checked = await checkImageFile(path).catch(() => null);
  if (checked === null) return 'the file cannot be read';
  return checked.status === 'incomplete' ? checked.reason : null;
}
