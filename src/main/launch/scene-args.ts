import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCENE = /\.(blend|zip)$/i;

/** Whether a path names a file Renderdrop submits when it is opened with the app. */
export function isScenePath(path: string): boolean {
  return SCENE.test(path);
}

/**
 * The `.blend` and `.zip` files a command line names, as absolute paths (resolved against `cwd`),
 * in order and without repeats. Switches (`--flag`, `-x`), the executable, the app folder of a
 * development launch and anything else are ignored; `file://` URLs are accepted.
 */
export function scenePathsFromArgv(argv: readonly string[], cwd: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const arg of argv.slice(1)) {
    if (arg === '' || arg.startsWith('-')) continue;
    let path = arg;
    if (/^file:\/\//i.test(arg)) {
      try {
        path = fileURLToPath(arg);
      } catch {
        continue;
      }
    }
    if (!isScenePath(path)) continue;
    const absolute = isAbsolute(path) ? path : resolve(cwd, path);
    if (seen.has(absolute)) continue;
    seen.add(absolute);
    out.push(absolute);
  }
  return out;
}

/** The files a second instance handed over in `additionalData`, when it sent a well-formed list. */
export function scenePathsFromHandOver(data: unknown): string[] | null {
  if (data === null || typeof data !== 'object' || !('files' in data)) return null;
  const files = (data as { files: unknown }).files;
  if (!Array.isArray(files) || !files.every((f): f is string => typeof f === 'string')) return null;
  return files.filter((f) => isAbsolute(f) && isScenePath(f));
}
