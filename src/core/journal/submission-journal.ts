import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { errorReason, JournalError } from '../errors';
import { type Clock, systemClock, writeFileAtomic } from '../util';
import { acquireRecordLock, type RecordLock } from './record-lock';
import { isFinished, JOURNAL_FORMAT_VERSION, reached, submissionRecordSchema, type SubmissionRecord, type SubmissionStep } from './submission-record';

/** What a new submission starts from. */
export interface NewSubmission {
  baseUrl: string;
  profileId: string | null;
  file: SubmissionRecord['file'];
  renderConfig?: Record<string, unknown> | null;
  validateBody?: Record<string, unknown> | null;
  download?: SubmissionRecord['download'];
  /** Pack a .blend with the files it uses (default true; false sends it alone). */
  pack?: boolean;
  /** Files or folders held at the packing boundary that are allowed to travel (default none). */
  allowOutside?: string[];
  /** The scene's project folder, when the artist chose one around the scene's folder. */
  project?: string;
}

/** Fields a step may set besides the step itself. */
export type SubmissionPatch = Partial<Omit<SubmissionRecord, 'version' | 'id' | 'createdAt' | 'updatedAt' | 'history'>>;

/**
 * The submission journal: one small JSON file per submission in `<data dir>/submissions/`, each
 * rewritten atomically at every step so a restart continues where the last run stopped. Bundles packed
 * for submissions live in `<data dir>/bundles/` and are deleted once no longer needed (the job exists,
 * the submission ended or was removed).
 */
export class SubmissionJournal {
  readonly dir: string;
  /** Where the bundles of submissions are written. */
  readonly bundleDir: string;
  readonly #clock: Clock;
  readonly #queues = new Map<string, Promise<unknown>>();

  /** `dataDir` is the settings folder; records go to its `submissions` subfolder. */
  constructor(options: { dataDir: string; clock?: Clock }) {
    this.dir = join(options.dataDir, 'submissions');
    this.bundleDir = join(options.dataDir, 'bundles');
    this.#clock = options.clock ?? systemClock;
  }

  /** Records a new submission at step `preflighted`. */
  async create(init: NewSubmission): Promise<SubmissionRecord> {
    const at = this.#now();
    const record: SubmissionRecord = {
      version: JOURNAL_FORMAT_VERSION,
      id: randomUUID(),
      createdAt: at,
      updatedAt: at,
      baseUrl: init.baseUrl,
      profileId: init.profileId,
      file: init.file,
      step: 'preflighted',
      pack: init.pack ?? true,
      ...(init.allowOutside && init.allowOutside.length > 0 ? { allowOutside: init.allowOutside } : {}),
      ...(init.project !== undefined ? { project: init.project } : {}),
      packing: null,
      bundle: null,
      ending: null,
      slug: null,
      uploadExpiresAt: null,
      jobIntentAt: null,
      jobId: null,
      validateBody: init.validateBody ?? null,
      renderConfig: init.renderConfig ?? null,
      download: init.download ?? { wanted: false, dir: null },
      downloadedTo: null,
      error: null,
      history: [{ step: 'preflighted', at }],
    };
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await this.#write(record);
    return record;
  }

  /** Applies `patch` (and records a new step in the history when `patch.step` changes it). */
  update(id: string, patch: SubmissionPatch): Promise<SubmissionRecord> {
    return this.#serialised(id, async () => {
      const current = await this.get(id);
      if (!current) throw new JournalError(`Submission ${id} is not in the journal (${this.dir}).`);
      const at = this.#now();
      const next: SubmissionRecord = { ...current, ...patch, updatedAt: at };
      const historyStep = patch.ending ?? (patch.step !== undefined && patch.step !== current.step ? patch.step : null);
      if (historyStep !== null) next.history = [...current.history, { step: historyStep, at }];
      await this.#write(next);
      if (bundleDone(next) && !bundleDone(current)) await this.#removeBundle(id);
      return next;
    });
  }

  /** Moves a submission to `step` with optional extra fields. */
  advance(id: string, step: SubmissionStep, patch: SubmissionPatch = {}): Promise<SubmissionRecord> {
    return this.update(id, { ...patch, step });
  }

  /** One submission, or null when absent or unreadable. */
  async get(id: string): Promise<SubmissionRecord | null> {
    try {
      const text = await readFile(this.#path(id), 'utf8');
      const parsed = submissionRecordSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  /** Every readable submission, oldest first. */
  async list(): Promise<SubmissionRecord[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const records = await Promise.all(names.filter((n) => n.endsWith('.json')).map((n) => this.get(n.slice(0, -'.json'.length))));
    return records.filter((r): r is SubmissionRecord => r !== null).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** Submissions with work left, oldest first. */
  async listUnfinished(): Promise<SubmissionRecord[]> {
    return (await this.list()).filter((r) => !isFinished(r));
  }

  /** The newest unfinished submission of this very file (same path, size and modification time). */
  async findUnfinishedForFile(path: string, size: number, mtimeMs: number): Promise<SubmissionRecord | null> {
    const matches = (await this.listUnfinished()).filter((r) => r.file.path === path && r.file.size === size && Math.abs(r.file.mtimeMs - mtimeMs) < 1);
    return matches.at(-1) ?? null;
  }

  /**
   * Takes the submission for this process until `release`: only the holder drives it, so two
   * Renderdrops (the app and `renderdrop resume`) never upload or create a job for it twice. Throws
   * SubmissionBusyError while another live process (or another run in this one) holds it.
   */
  async lock(id: string): Promise<RecordLock> {
    const path = this.#path(id).replace(/\.json$/, '.lock');
    await mkdir(this.dir, { recursive: true, mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
      throw new JournalError(`Could not open the submission journal in ${this.dir} (${error.code ?? error.message}). Check its permissions.`);
    });
    return acquireRecordLock(path, `submission ${id}`);
  }

  /** Deletes a submission's record and its bundle. */
  async remove(id: string): Promise<void> {
    await this.#serialised(id, async () => {
      await unlink(this.#path(id)).catch(() => undefined);
      await this.#removeBundle(id);
    });
  }

  /** Where the bundle of a submission is written. */
  bundlePath(id: string): string {
    return join(this.bundleDir, `${this.#checkedId(id)}.zip`);
  }

  /**
   * Deletes bundles no unfinished submission still has to upload (left by a submission removed or
   * ended by another Renderdrop version, or by a crash between the two writes).
   */
  async sweepBundles(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.bundleDir);
    } catch {
      return;
    }
    const needed = new Set((await this.list()).filter((r) => !bundleDone(r)).map((r) => r.id));
    const stale = names.filter((name) => !needed.has(name.replace(/\.zip(\.part)?$/, '')));
    await Promise.all(stale.map((name) => rm(join(this.bundleDir, name), { force: true })));
  }

  #path(id: string): string {
    return join(this.dir, `${this.#checkedId(id)}.json`);
  }

  #checkedId(id: string): string {
    if (!/^[A-Za-z0-9-]+$/.test(id)) throw new JournalError(`"${id}" is not a submission id.`);
    return id;
  }

  async #removeBundle(id: string): Promise<void> {
    const path = this.bundlePath(id);
    await Promise.all([rm(path, { force: true }), rm(`${path}.part`, { force: true })]);
  }

  async #write(record: SubmissionRecord) {
    try {
      await writeFileAtomic(this.#path(record.id), `${JSON.stringify(record, null, 2)}\n`);
    } catch (error) {
      throw new JournalError(`Could not write the submission journal in ${this.dir} (${errorReason(error)}). Check free space and permissions.`);
    }
  }

  #serialised<T>(id: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#queues.get(id) ?? Promise.resolve();
    const next = previous.then(work, work);
    this.#queues.set(
      id,
      next.catch(() => undefined),
    );
    return next;
  }

  #now(): string {
    return new Date(this.#clock.now()).toISOString();
  }
}

/** Whether a submission no longer needs its bundle: the job exists, or the submission ended. */
function bundleDone(record: SubmissionRecord): boolean {
  return isFinished(record) || reached(record, 'job-created');
}
