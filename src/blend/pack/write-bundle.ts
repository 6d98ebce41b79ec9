import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { constants, createDeflateRaw } from 'node:zlib';
import type { BundleEntry, BundlePlan } from './bundle-plan';
import { BlendError, openByteSource, openedOnRead, pipedThrough } from '../reader';
import { entryMethod } from './entry-method';
import { PatchStream } from './patch-stream';
import { ZipWriter, type ZipMethod, type ZipSink } from './zip-writer';

/** Progress of writing a bundle. */
export interface PackProgress {
  bytesDone: number;
  bytesTotal: number;
  filesDone: number;
  filesTotal: number;
  /** The entry being written (null once done). */
  entry: string | null;
  done: boolean;
}

/** Options of {@link writeBundle}. */
export interface WriteBundleOptions {
  onProgress?: (progress: PackProgress) => void;
  signal?: AbortSignal;
  /** Folder for temporary decompressed copies of gzip-compressed .blend files. */
  tempDir?: string;
  /** Milliseconds between progress events within an entry (default 100). */
  progressIntervalMs?: number;
  /** Hash the zip's bytes with SHA-256 as they are written (no second read of the bundle). */
  sha256?: boolean;
  /**
   * Store every entry as it is, never deflated: an unchanged file then keeps identical bytes in the
   * zip, and a changed one differs only where it changed (what a chunked upload needs to send little).
   */
  storeOnly?: boolean;
}

/** The bundle written. */
export interface WriteBundleResult {
  path: string;
  /** Size of the zip. */
  bytes: number;
  entries: number;
  /** SHA-256 of the zip (hex), when asked for. */
  sha256: string | null;
}

/** What happened to a file while the bundle was written. */
export type PackErrorReason = 'changed' | 'gone' | 'unreadable' | 'is-output';

/** A file changed, vanished or cannot be read while the bundle was written; nothing was kept. */
export class PackError extends BlendError {
  constructor(
    message: string,
    /** The file on disk it is about. */
    readonly source: string,
    readonly reason: PackErrorReason,
  ) {
    super(message);
  }
}

const READ_CHUNK = 1024 * 1024;

/**
 * Write the bundle a plan describes to `outPath`: entries in the plan's order, every .blend copied
 * decompressed with its paths rewritten, deflated only where it pays (see {@link entryMethod}). The zip
 * is written beside `outPath` under a temporary name and renamed when complete, so `outPath` is
 * either absent or whole; the artist's files are only read. Equal plans give equal bytes.
 */
export async function writeBundle(plan: BundlePlan, outPath: string, options: WriteBundleOptions & { sha256: true }): Promise<WriteBundleResult & { sha256: string }>;
export async function writeBundle(plan: BundlePlan, outPath: string, options?: WriteBundleOptions): Promise<WriteBundleResult>;
export async function writeBundle(plan: BundlePlan, outPath: string, options: WriteBundleOptions = {}): Promise<WriteBundleResult> {
  const target = resolve(outPath);
  if (plan.entries.some((e) => resolve(e.source) === target)) throw new PackError(`${outPath} is one of the scene's own files; choose another name for the bundle.`, target, 'is-output');
  const partial = `${target}.part`;
  const out = createWriteStream(partial, { highWaterMark: 4 * READ_CHUNK });
  const hash = options.sha256 ? createHash('sha256') : null;
  const zip = new ZipWriter(streamSink(out, hash));
  const progress = new ProgressReporter(plan, options);
  try {
    for (const entry of plan.entries) {
      options.signal?.throwIfAborted();
      progress.start(entry.name);
      await writeEntry(zip, plan, entry, progress, options);
      progress.finish();
    }
    await zip.finish();
    await closeStream(out);
    await rename(partial, target);
  } catch (error) {
    out.destroy();
    await rm(partial, { force: true });
    throw error;
  }
  progress.end();
  return { path: target, bytes: zip.size, entries: plan.entries.length, sha256: hash?.digest('hex') ?? null };
}

async function writeEntry(zip: ZipWriter, plan: BundlePlan, entry: BundleEntry, progress: ProgressReporter, options: WriteBundleOptions): Promise<void> {
  await assertUnchanged(entry);
  const compress = (raw: AsyncIterable<Buffer>) => pipedThrough(Readable.from(raw), createDeflateRaw({ level: constants.Z_DEFAULT_COMPRESSION }));
  const close: (() => Promise<void>)[] = [];
  let data: Readable | null = null;
  try {
    let method: ZipMethod;
    if (entry.blend === null) {
      method = options.storeOnly ? 'store' : await entryMethod(entry.source);
      data = openedOnRead(() => createReadStream(entry.source, { highWaterMark: READ_CHUNK }));
    } else {
      const blend = plan.blends[entry.blend]!;
      const source = await openByteSource(entry.source, options.tempDir ? { tempDir: options.tempDir } : {});
      close.push(() => source.close());
      if (source.size !== blend.sourceSize) throw changed(entry);
      method = options.storeOnly ? 'store' : await entryMethod(entry.source, { size: source.size, read: (offset, length) => source.read(offset, length), replaced: blend.patches });
      data = openedOnRead(() => pipedThrough(source.stream(), new PatchStream(blend.patches)));
    }
    let seen = 0;
    await zip.addEntry(entry.name, watch(data, options.signal, (n) => {
      seen += n;
      progress.advance(n);
    }), { method, expectedSize: entry.size, compress });
    if (seen !== entry.size) throw changed(entry);
  } finally {
    data?.destroy();
    for (const c of close) await c();
  }
}

async function* watch(data: Readable, signal: AbortSignal | undefined, onBytes: (n: number) => void): AsyncIterable<Buffer> {
  for await (const chunk of data) {
    signal?.throwIfAborted();
    const buffer: Buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    onBytes(buffer.length);
    yield buffer;
  }
}

async function assertUnchanged(entry: BundleEntry): Promise<void> {
  let info;
  try {
    info = await stat(entry.source);
    const handle = await open(entry.source, 'r');
    await handle.close();
  } catch (error) {
    const reason = error instanceof Error && 'code' in error && error.code === 'ENOENT' ? 'gone' : 'unreadable';
    throw new PackError(`${entry.source} ${reason === 'gone' ? 'is gone' : 'cannot be read'} since the scene was traced. Check the file and pack again.`, entry.source, reason);
  }
  if (info.mtimeMs !== entry.mtimeMs) throw changed(entry);
}

function changed(entry: BundleEntry): PackError {
  return new PackError(`${basename(entry.source)} changed since the scene was traced (${entry.source}). Pack again to include the current version.`, entry.source, 'changed');
}

function streamSink(out: WriteStream, hash: Hash | null): ZipSink {
  let failure: Error | null = null;
  out.on('error', (error) => {
    failure = error;
  });
  return {
    write: (chunk) =>
      new Promise<void>((done, fail) => {
        if (failure) return fail(failure);
        hash?.update(chunk);
        if (out.write(chunk)) return done();
        const onDrain = () => {
          out.off('error', onError);
          done();
        };
        const onError = (error: Error) => {
          out.off('drain', onDrain);
          fail(error);
        };
        out.once('drain', onDrain);
        out.once('error', onError);
      }),
  };
}

function closeStream(out: WriteStream): Promise<void> {
  return new Promise((done, fail) => {
    out.once('error', fail);
    out.end(() => done());
  });
}

class ProgressReporter {
  private bytes = 0;
  private files = 0;
  private entry: string | null = null;
  private last = 0;
  private readonly interval: number;

  constructor(
    private readonly plan: BundlePlan,
    private readonly options: WriteBundleOptions,
  ) {
    this.interval = options.progressIntervalMs ?? 100;
  }

  start(entry: string): void {
    this.entry = entry;
    this.emit(false, true);
  }

  advance(bytes: number): void {
    this.bytes += bytes;
    this.emit(false, false);
  }

  finish(): void {
    this.files++;
  }

  end(): void {
    this.entry = null;
    this.emit(true, true);
  }

  private emit(done: boolean, force: boolean): void {
    if (!this.options.onProgress) return;
    const now = Date.now();
    if (!force && now - this.last < this.interval) return;
    this.last = now;
    this.options.onProgress({ bytesDone: this.bytes, bytesTotal: this.plan.totalBytes, filesDone: this.files, filesTotal: this.plan.entries.length, entry: this.entry, done });
  }
}
