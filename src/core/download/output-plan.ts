import { outputItemSchema, type Downloads, type OutputItem } from '../../shared/api';
import { sanitizeRelativePath } from './safe-path';

/** One file to fetch: where it goes (relative, sanitised, unique) and where it comes from. */
export interface PlannedOutput {
  relativePath: string;
  url: string;
}

/**
 * The files to fetch for a job's downloads. Prefers `frameOutputs` and `compositeNodeOutputs`
 * (original names and folders) over the older `frames` and `compositeNodes` URL lists, whose names come
 * from the URL path. Compositor outputs go into a folder named after their node; a video made from the
 * frames goes beside them. Destinations are
 * sanitised and made unique.
 */
export function planOutputs(downloads: Downloads): PlannedOutput[] {
  const planned: PlannedOutput[] = [];
  const add = (relativePath: string, url: string) => planned.push({ relativePath: sanitizeRelativePath(relativePath), url });
  if (downloads.frameOutputs.length > 0) downloads.frameOutputs.forEach((item) => add(itemPath(item), item.url));
  else downloads.frames.forEach((url, i) => add(fileNameFromUrl(url, `frame-${i + 1}`), url));
  if (downloads.compositeNodeOutputs.length > 0) {
    downloads.compositeNodeOutputs.forEach((item) => add(item.compositeNodeName ? `${item.compositeNodeName}/${itemPath(item)}` : itemPath(item), item.url));
  }
  else downloads.compositeNodes.forEach((url, i) => add(fileNameFromUrl(url, `composite-${i + 1}`), url));
  const video = videoOutputOf(downloads);
  if (video) add(itemPath(video), video.url);
  return makeUnique(planned);
}

/**
 * The video a server made from the frames (`transforms.video`), when it is an output item (a URL and a
 * file name, as the local render node sends it); null otherwise.
 */
export function videoOutputOf(downloads: Downloads): OutputItem | null {
  const transforms = (downloads as { transforms?: unknown }).transforms;
  const video = transforms && typeof transforms === 'object' ? (transforms as { video?: unknown }).video : null;
  const parsed = outputItemSchema.safeParse(video);
  return parsed.success ? parsed.data : null;
}

/** Where an output item goes: its relative path (a folder, or a path ending in the file name) and name. */
export function itemPath(item: OutputItem): string {
  const folder = (item.relativePath ?? '').replace(/\\/g, '/').replace(/\/+$/, '');
  if (folder === '') return item.fileName;
  if (folder === item.fileName || folder.endsWith(`/${item.fileName}`)) return folder;
  return `${folder}/${item.fileName}`;
}

/** The last path segment of a URL, decoded; `fallback` when there is none. */
export function fileNameFromUrl(url: string, fallback: string): string {
  try {
    const last = new URL(url, 'http://invalid/').pathname.split('/').filter(Boolean).pop();
    return last ? decodeURIComponent(last) : fallback;
  } catch {
    return fallback;
  }
}

function makeUnique(planned: PlannedOutput[]): PlannedOutput[] {
  const seen = new Set<string>();
  return planned.map((entry) => {
    let candidate = entry.relativePath;
    for (let n = 2; seen.has(candidate.toLowerCase()); n++) {
      const dot = entry.relativePath.lastIndexOf('.');
      const slash = entry.relativePath.lastIndexOf('/');
      candidate = dot > slash + 1 ? `${entry.relativePath.slice(0, dot)} (${n})${entry.relativePath.slice(dot)}` : `${entry.relativePath} (${n})`;
    }
    seen.add(candidate.toLowerCase());
    return { ...entry, relativePath: candidate };
  });
}
