import yazl from 'yazl';
import { blenderInfo } from '../../helpers/blender-info';
import { uploadBytes, waitForJob, type TestNode } from '../../helpers/node';
import { blendBytes } from '../../helpers/scene-files';

/** A Blender that exits at once: validation gets as far as analysing, which then fails. */
export const failingBlender = blenderInfo({ path: '/bin/false', openImageDenoise: false, viewTransforms: ['Standard'], looks: [], colorSpaces: [] });

/** A zip with a scene and `padding` bytes of zeros (a few KiB compressed). */
export async function paddedSceneZip(padding: number): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(blendBytes(4096), 'scene.blend');
  zip.addBuffer(Buffer.alloc(padding), 'textures/huge.raw', { compress: true });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Uploads a zip, creates its job and validates it; the job once validation has ended. */
export async function validateZip(t: TestNode, bytes: Buffer): Promise<any> {
  const slug = await uploadBytes(t, 'bundle.zip', bytes);
  const job = (await t.call('POST', '/jobs', { slug })).json;
  await t.call('POST', `/jobs/${job.id}/validate`);
  return waitForJob(t, job.id, (j) => j.status !== 'validating');
}
