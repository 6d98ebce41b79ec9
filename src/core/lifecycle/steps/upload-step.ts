import { uploadChunked } from '../../upload';
import { takeChangedFile } from './changed-file';
import { chunkedFarm } from './chunked-farm';
import { ensureBundle } from './pack-step';
import { sentInChunksBefore } from './sent-in-chunks-before';
import { sentFile } from './sent-file';
import type { StepContext } from '../step-context';

/**
 * `packed` / `upload-target` -> `uploaded`: asks for an upload target (recorded before the bytes go)
 * and streams the bundle to it, or the file itself when there is none (checked again first when it
 * changed since it was added); a fresh target when the URL expired. Records the slug that holds the
 * bytes. A Renderdrop node that takes chunked uploads is sent only the chunks it lacks from this key
 * (uploadChunked), and its rebuilt file's slug is recorded the same way; a project never sent to it
 * in chunks goes whole, uncut, and the node cuts it (sentInChunksBefore).
 */
export async function uploadStep(ctx: StepContext): Promise<void> {
  if (ctx.record().bundle === null) await takeChangedFile(ctx);
  else await ensureBundle(ctx);
  const sent = sentFile(ctx.record());
  const request = { fileName: sent.name, fileType: sent.fileType };
  const api = await chunkedFarm(ctx);
  if (api) {
    const firstTime = !(await sentInChunksBefore(ctx.journal, ctx.record()));
    await ctx.save({ step: 'upload-target', slug: null, uploadExpiresAt: null });
    const known = ctx.record().bundle?.sha256;
    const result = await uploadChunked({ api, filePath: sent.path, fileName: sent.name, fileType: sent.fileType, size: sent.size, ...(known ? { sha256: known } : {}), firstTime, onProgress: (progress) => ctx.emit('upload', progress), clock: ctx.clock, ...(ctx.signal ? { signal: ctx.signal } : {}) });
    await ctx.save({ step: 'uploaded', slug: result.slug, uploadExpiresAt: null, uploadSent: { bytesSent: result.bytesSent, bytesReused: result.bytesReused } });
    return;
  }
  const target = await ctx.client.createUpload(request, ctx.call);
  await ctx.save({ step: 'upload-target', slug: target.slug, uploadExpiresAt: target.expiresAt });
  const result = await ctx.upload({
    filePath: sent.path,
    size: sent.size,
    fileType: sent.fileType,
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
