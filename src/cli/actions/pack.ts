import { stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { BlendError } from '../../blend/reader';
import { BLEND_BACKUP } from '../../blend/trace';
import { needsPacking, traceScene, writeBundle } from '../../blend/pack';
import { AbortError, isAbort } from '../../core/errors';
import { BUNDLE_TOO_LARGE_ADVICE, bundleOverLimit, folderBoundary, holdPrivateFiles } from '../../core/packing';
import { type CliContext } from '../context';
import { formatPackPlan, packWarnings, projectFor, projectLine } from '../packing';
import { countOf, formatBytes } from '../../shared/text';
import { CommandFailedError, UsageError } from '../cli-errors';
import { formatPack, LiveDisplay } from '../output';
import { safeText } from '../terminal';

/** `renderdrop pack <scene>`: traces the scene, prints the plan and writes the bundle with `--out`. */
export async function pack(ctx: CliContext, scene: string, opts: { out?: string; json?: boolean; allowOutside?: string[]; project?: string }): Promise<void> {
  const interrupt = ctx.listenForInterrupt();
  const progressStream = opts.json ? ctx.io.stderr : ctx.io.stdout;
  const display = new LiveDisplay(progressStream, { live: Boolean(progressStream.isTTY) });
  try {
    refuseBackup(scene);
    if (opts.out !== undefined) await checkOut(resolve(opts.out));
    const choice = await projectFor(ctx, resolve(scene), opts.project);
    const boundary = { project: choice.project, allowOutside: opts.allowOutside ?? [] };
    const traced = await traceScene(resolve(scene), { signal: interrupt.signal, mayList: folderBoundary(boundary) }).catch(failure);
    const { plan, privateFiles } = await holdPrivateFiles(traced, boundary.allowOutside, boundary.project);
    const projectNote = projectLine(basename(scene), choice);
    const overLimit = bundleOverLimit(plan);
    const tooLarge = overLimit === null ? null : `${overLimit} renderdrop submit refuses it before packing. ${BUNDLE_TOO_LARGE_ADVICE}`;
    if (!opts.json) {
      if (projectNote !== null) ctx.io.stdout.write(`${safeText(projectNote)}\n`);
      ctx.io.stdout.write(`${formatPackPlan(plan, privateFiles, choice.project).map((line) => safeText(line)).join('\n')}\n`);
      if (tooLarge !== null) ctx.io.stdout.write(`${safeText(`! ${tooLarge}`)}\n`);
    }
    let written: { path: string; bytes: number } | null = null;
    if (opts.out !== undefined) {
      written = await writeBundle(plan, resolve(opts.out), {
        signal: interrupt.signal,
        onProgress: (progress) => display.update('pack', `packing  ${formatPack(progress, { bar: display.live })}`, { force: progress.done }),
      }).catch(failure);
      display.finish('pack', null);
    }
    if (opts.json) {
      const warnings = [...packWarnings(plan), ...(tooLarge !== null ? [tooLarge] : [])];
      ctx.io.stdout.write(`${JSON.stringify({ needsPacking: needsPacking(plan), project: choice.project, plan, bundle: written, warnings, privateFiles }, null, 2)}\n`);
    } else if (written) {
      ctx.io.stdout.write(`${safeText(`Wrote ${written.path}: ${countOf(plan.entries.length, 'file')}, ${formatBytes(written.bytes)}.`)}\n`);
    } else if (needsPacking(plan)) {
      ctx.io.stdout.write('Nothing was written; add --out <bundle.zip> to write the bundle.\n');
    }
  } finally {
    display.close();
    interrupt.dispose();
  }
}

/**
 * A backup Blender keeps beside a scene (`shot.blend1`) is refused as `submit` refuses it: it is never
 * packed unless a scene links it.
 */
function refuseBackup(scene: string): void {
  if (BLEND_BACKUP.test(scene)) {
    throw new CommandFailedError(`${basename(scene)} is a backup Blender keeps beside a scene, not a .blend or .zip file. Pack the scene itself (${basename(scene).replace(BLEND_BACKUP, '.blend')}), or save the backup as a .blend first.`);
  }
}

/** The bundle's path must be a new or existing file in an existing folder; said in one line otherwise. */
async function checkOut(out: string): Promise<void> {
  const [target, folder] = await Promise.all([stat(out).catch(() => null), stat(dirname(out)).catch(() => null)]);
  if (target?.isDirectory()) throw new UsageError(`--out ${out} is a folder; give the path of the zip to write, e.g. --out ${resolve(out, 'bundle.zip')}.`);
  if (!folder) throw new UsageError(`--out ${out}: the folder ${dirname(out)} does not exist. Create it first, or choose another place for the bundle.`);
  if (!folder.isDirectory()) throw new UsageError(`--out ${out}: ${dirname(out)} is a file, not a folder. Choose another place for the bundle.`);
}

/** Errors of tracing and packing as messages for the person at the terminal. */
function failure(error: unknown): never {
  if (isAbort(error)) throw new AbortError('Packing stopped; nothing was written. Run the command again to pack.');
  if (error instanceof BlendError) throw new CommandFailedError(error.message);
  throw error;
}
