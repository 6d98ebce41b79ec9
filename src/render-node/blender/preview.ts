import { parseEventLine } from './event-lines';
import { blenderErrorLines, runBlender } from './run-blender';
import { blenderScript } from './scripts-dir';

/** Input of {@link makePreview}. */
export interface PreviewOptions {
  blenderPath: string;
  /** A rendered frame in any format Blender reads (PNG, JPEG, EXR, TIFF, ...). */
  imagePath: string;
  outPath: string;
  /** The preview fits in maxSize x maxSize (default 512); smaller images keep their size. */
  maxSize?: number;
  /** View transform float images are shown through (default "Standard"). */
  viewTransform?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

/** The preview written. */
export interface Preview {
  path: string;
  width: number;
  height: number;
}

/** Write a small 8-bit PNG preview of a rendered frame (resources/blender/preview.py). */
export async function makePreview(options: PreviewOptions): Promise<Preview> {
  let preview: Preview | null = null;
  const result = await runBlender({
    blenderPath: options.blenderPath,
    args: [
      '-b', '-Y', '--factory-startup', '--python-exit-code', '1', '--python', blenderScript('preview.py'), '--',
      options.imagePath, options.outPath, String(options.maxSize ?? 512), options.viewTransform ?? 'Standard',
    ],
    timeoutMs: options.timeoutMs ?? 60_000,
    signal: options.signal,
    env: options.env,
    onStdoutLine(line) {
      const event = parseEventLine(line);
      if (event?.event === 'preview') preview = { path: event.path, width: event.width, height: event.height };
    },
  });
  if (result.exitCode === 0 && preview) return preview;
  const why = result.timedOut ? 'timed out' : (blenderErrorLines(result).at(-1) ?? `exit code ${result.exitCode}`);
  throw new Error(`Could not make a preview of ${options.imagePath}: ${why}`);
}
