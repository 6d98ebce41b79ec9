import { basename } from 'node:path';
import { bundleSizeBound, needsPacking, type BundlePlan } from '../../blend/pack';
import { MAX_UPLOAD_BYTES } from '../../shared/api';
import { formatBytes } from '../../shared/text';

const GIB = 1024 ** 3;

/** What an artist can do about a bundle too large to upload (nothing in Renderdrop leaves files out on request). */
export const BUNDLE_TOO_LARGE_ADVICE =
  'In Blender, free the bakes and caches the render does not need, or make the scene use smaller files, then submit it again; or render it on a farm that takes bigger uploads.';

/** An upload limit in words: whole GiB as such ("5 GiB"), else in the usual units. */
function limitWords(limit: number): string {
  return limit % GIB === 0 ? `${limit / GIB} GiB` : formatBytes(limit);
}

/**
 * Why the bundle a plan describes cannot be uploaded, as one sentence naming how big it would be, its
 * largest file and the limit; null when it can. Judged on the plan, before anything is written: the
 * bundle's size bound (every file, deflated ones at their worst, and the zip's headers) must stay below
 * `limit` (the API's 5 GiB). A scene that travels alone (no bundle) is left to preflight, which measured it.
 */
export function bundleOverLimit(plan: BundlePlan, limit: number = MAX_UPLOAD_BYTES): string | null {
  if (!needsPacking(plan)) return null;
  const bound = bundleSizeBound(plan);
  if (bound < limit) return null;
  const largest = plan.entries.reduce((a, b) => (b.size > a.size ? b : a));
  return (
    `${basename(plan.scene)} and the files it uses would make a bundle of up to ${formatBytes(bound)} ` +
    `(the largest file: ${largest.source}, ${formatBytes(largest.size)}), and uploads must be smaller than ${limitWords(limit)}.`
  );
}
