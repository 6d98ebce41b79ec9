import { mkdir, rm, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { BlendFileError } from '../../../blend/reader';
import { BundleNameClashError, needsPacking, type BundlePlan, PathRewriteError, PackError, traceScene, writeBundle } from '../../../blend/pack';
import { PackingError } from '../../errors';
import type { SubmissionRecord } from '../../journal';
import { BUNDLE_TOO_LARGE_ADVICE, bundleOverLimit, folderBoundary, type HeldPlan, holdPrivateFiles, summarizePlan } from '../../packing';
import { takeChangedFile } from './changed-file';
import { chunkedFarm } from './chunked-farm';
import type { StepContext } from '../step-context';

/**
 * `preflighted` -> `traced`: reads which files a .blend uses and records what travels and what is
 * missing. A zip, a .blend sent alone (packing off) and a .blend the tracer cannot read (said in a
 * notice) go straight to `packed` without a bundle.
 */
export async function traceStep(ctx: StepContext): Promise<void> {
  const record = ctx.record();
  if (record.file.fileType !== 'blend' || !record.pack) {
    await ctx.save({ step: 'packed', packing: null, bundle: null });
    return;
  }
  await takeChangedFile(ctx);
  let held: HeldPlan;
  try {
    held = await trace(ctx);
  } catch (error) {
    if (!(error instanceof BlendFileError)) throw error;
    ctx.emit('notice', { message: `Renderdrop could not read which files ${record.file.name} uses (${error.message}); sending it alone.` });
    await ctx.save({ step: 'packed', packing: null, bundle: null });
    return;
  }
  await ctx.save({ step: 'traced', packing: summarizePlan(held.plan, held.privateFiles) });
}

/**
 * `traced` / `packing` -> `packed`. From `traced` the scene is traced again (the artist may have
 * fixed a file meanwhile) and `packing` records the content the bundle will have (its fingerprint)
 * before a byte is written; from `packing` (a run stopped while writing) the scene must trace to that
 * same fingerprint, so the bundle written again is the same bytes, or the submission stops: it never
 * sends other bytes than the ones it started packing. The bundle goes to the journal's bundle folder,
 * never beside the artist's files, and `packed` records its SHA-256. For a farm that takes chunked
 * uploads every entry is stored undeflated, so the files that did not change keep the same bytes.
 */
export async function packStep(ctx: StepContext): Promise<void> {
  const record = ctx.record();
  if (record.step === 'traced') await takeChangedFile(ctx);
  const { plan, privateFiles } = await trace(ctx).catch((error: unknown) => {
    if (error instanceof BlendFileError && record.step === 'packing') throw changedSinceFixed(record);
    throw error;
  });
  if (record.step === 'traced') {
    if (!needsPacking(plan)) {
      await ctx.save({ step: 'packed', packing: summarizePlan(plan, privateFiles), bundle: null });
      return;
    }
    await ctx.save({ step: 'packing', packing: summarizePlan(plan, privateFiles) });
  } else if (plan.fingerprint !== record.packing?.fingerprint) {
    throw changedSinceFixed(record);
  }
  const bundle = await write(ctx, plan);
  await ctx.save({ step: 'packed', bundle });
}

/**
 * The bundle of a `packed` record, ready to upload: when it is no longer in the bundle folder it is
 * packed again from the same files and must come out with the recorded SHA-256.
 */
export async function ensureBundle(ctx: StepContext): Promise<void> {
  const record = ctx.record();
  const bundle = record.bundle;
  if (bundle === null) return;
  const info = await stat(bundle.path).catch(() => null);
  if (info?.isFile() && info.size === bundle.size) return;
  const { plan } = await trace(ctx).catch((error: unknown) => {
    throw error instanceof BlendFileError ? changedSinceFixed(record) : error;
  });
  if (plan.fingerprint !== record.packing?.fingerprint) throw changedSinceFixed(record);
  const again = await write(ctx, plan);
  if (again.sha256 !== bundle.sha256) {
    await rm(again.path, { force: true });
    throw changedSinceFixed(record);
  }
  ctx.emit('notice', { message: `The bundle of ${record.file.name} was gone; it was packed again with the same content.` });
}

/**
 * The scene's bundle plan, with the files held at the packing boundary (outside the project, the
 * scene's folder or the one the record names, and secret or hard-linked files) left out unless the
 * record allows them, and folders outside it never read (holdPrivateFiles, folderBoundary): the same
 * record always traces to the same plan. A plan whose bundle could not be uploaded (bundleOverLimit)
 * stops the submission here, before anything is written.
 */
async function trace(ctx: StepContext): Promise<HeldPlan> {
  let held: HeldPlan;
  try {
    const record = ctx.record();
    const boundary = { project: record.project ?? dirname(record.file.path), allowOutside: record.allowOutside ?? [] };
    const plan = await traceScene(record.file.path, { ...(ctx.signal ? { signal: ctx.signal } : {}), mayList: folderBoundary(boundary) });
    held = await holdPrivateFiles(plan, boundary.allowOutside, boundary.project);
  } catch (error) {
    if (error instanceof BundleNameClashError || error instanceof PathRewriteError) {
      throw new PackingError(`${ctx.record().file.name} cannot be packed: ${error.message}`, { code: 'cannot-pack' });
    }
    throw error;
  }
  const tooLarge = bundleOverLimit(held.plan);
  if (tooLarge !== null) throw new PackingError(`${tooLarge} Nothing was packed or sent. ${BUNDLE_TOO_LARGE_ADVICE}`, { code: 'too-large' });
  return held;
}

async function write(ctx: StepContext, plan: BundlePlan): Promise<NonNullable<SubmissionRecord['bundle']>> {
  const record = ctx.record();
  const path = ctx.journal.bundlePath(record.id);
  await mkdir(ctx.journal.bundleDir, { recursive: true, mode: 0o700 });
  try {
    const written = await writeBundle(plan, path, {
      sha256: true,
      storeOnly: (await chunkedFarm(ctx)) !== null,
      tempDir: ctx.journal.bundleDir,
      onProgress: (progress) => ctx.emit('pack', progress),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    return { path, sha256: written.sha256, size: written.bytes };
  } catch (error) {
    if (error instanceof PackError) throw fileTrouble(record, error);
    throw error;
  }
}

function changedSinceFixed(record: SubmissionRecord): PackingError {
  return new PackingError(
    `The files of ${record.file.name} changed after packing began, so its bundle would no longer be the one this submission started with. ` +
      'Nothing was sent. Submit the scene again to send the current version.',
    { code: 'changed-since-packing' },
  );
}

function fileTrouble(record: SubmissionRecord, error: PackError): PackingError {
  const what = `${basename(error.source)} (${error.source})`;
  switch (error.reason) {
    case 'changed':
      return new PackingError(`${what} changed while ${record.file.name} was being packed. Nothing was sent. Submit the scene again to send the current version.`, { code: 'changed-while-packing' });
    case 'gone':
      return new PackingError(`${what} disappeared while ${record.file.name} was being packed. Nothing was sent. Put it back, or submit the scene again to send it without it.`, { code: 'changed-while-packing' });
    case 'unreadable':
    case 'is-output':
      return new PackingError(`${what} could not be read while ${record.file.name} was being packed. Nothing was sent. Check that the file can be opened, then submit the scene again.`, { code: 'unreadable-while-packing' });
  }
}
