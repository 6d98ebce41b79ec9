import { stat } from 'node:fs/promises';
import { preflight } from '../upload/preflight';
import type { StepContext } from './step-context';

/**
 * `preflighted` / `upload-target` -> `uploaded`: checks the file again when it changed since it was
 * added, asks for an upload target (recorded before the bytes go), streams the file to it (a fresh
 * target when the URL expired) and records the slug that holds the bytes.
 */
export async function uploadStep(ctx: StepContext): Promise<void> {
  const file = ctx.record().file;
  const info = await stat(file.path).catch(() => null);
  if (!info || info.size !== file.size || Math.abs(info.mtimeMs - file.mtimeMs) >= 1) {
    const checked = await preflight(file.path);
    await ctx.save({ file: { ...file, size: checked.size, mtimeMs: checked.mtimeMs, ...(checked.fileType === 'zip' ? { blendFiles: checked.blendEntries } : {}) } });
    ctx.emit('notice', { message: `${file.name} changed since it was added; uploading the current version.` });
  }
  const request = { fileName: file.name, fileType: file.fileType };
  const target = await ctx.client.createUpload(request, ctx.call);
  await ctx.save({ step: 'upload-target', slug: target.slug, uploadExpiresAt: target.expiresAt });
  const current = ctx.record().file;
  const result = await ctx.upload({
    filePath: current.path,
    size: current.size,
    fileType: current.fileType,
    target,
    refreshTarget: async () => {
      const fresh = await ctx.client.createUpload(request, ctx.call);
      await ctx.save({ slug: fresh.slug, uploadExpiresAt: fresh.expiresAt });
      ctx.emit('notice', { message: 'The upload URL expired; continuing with a fresh one.' });
      return fresh;
    },
    onProgress: (progress) => ctx.emit('upload', progress),
    clock: ctx.clock,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  await ctx.save({ step: 'uploaded', slug: result.target.slug, uploadExpiresAt: null });
}
