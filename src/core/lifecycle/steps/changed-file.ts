import { stat } from 'node:fs/promises';
import { preflight } from '../../upload';
import type { StepContext } from '../step-context';

/**
 * Checks the submitted file again when it changed since it was recorded (size or modification time),
 * and records its current size and time, saying so: until its content is fixed (packing began, or the
 * upload), a submission sends the current version of the file.
 */
export async function takeChangedFile(ctx: StepContext): Promise<void> {
  const file = ctx.record().file;
  const info = await stat(file.path).catch(() => null);
  if (info && info.size === file.size && Math.abs(info.mtimeMs - file.mtimeMs) < 1) return;
  const checked = await preflight(file.path);
  await ctx.save({ file: { ...file, size: checked.size, mtimeMs: checked.mtimeMs, ...(checked.fileType === 'zip' ? { blendFiles: checked.blendEntries } : {}) } });
  ctx.emit('notice', { message: `${file.name} changed since it was added; sending the current version.` });
}
