// `npm start`: runs the desktop app in development (electron-vite dev) when the Electron binary is
// installed, and otherwise says so in one line, pointing to browser mode.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** What is needed to look for the Electron binary (passed in so tests need no file system). */
export interface ElectronLookup {
  /** The installed `electron` package's folder, or null when the package is not installed. */
  electronDir: string | null;
  env: Record<string, string | undefined>;
  exists(path: string): boolean;
  /** A file's text, or null when it cannot be read. */
  readText(path: string): string | null;
}

/** The one line `npm start` prints when the desktop app cannot run here. */
export const NO_ELECTRON_MESSAGE =
  'Renderdrop desktop needs the Electron binary, which is not installed on this machine (it could not be downloaded): run `npm run web` to use Renderdrop in your browser instead.';

/**
 * The Electron executable electron-vite would start, or null when there is none: `ELECTRON_EXEC_PATH`
 * when it exists, else the file named by the package's `path.txt` (written by the download) inside
 * its `dist/` folder, or inside `ELECTRON_OVERRIDE_DIST_PATH`. Never triggers a download.
 */
export function findElectronBinary(lookup: ElectronLookup): string | null {
  const explicit = lookup.env.ELECTRON_EXEC_PATH?.trim();
  if (explicit) return lookup.exists(explicit) ? explicit : null;
  if (!lookup.electronDir) return null;
  const name = lookup.readText(join(lookup.electronDir, 'path.txt'))?.trim();
  if (!name) return null;
  const override = lookup.env.ELECTRON_OVERRIDE_DIST_PATH?.trim();
  const binary = override ? join(override, name) : join(lookup.electronDir, 'dist', name);
  return lookup.exists(binary) ? binary : null;
}

/** The installed package folder of `name`, or null (its entry point is never loaded). */
export function packageDir(name: string, from: string = import.meta.url): string | null {
  try {
    return dirname(createRequire(from).resolve(`${name}/package.json`));
  } catch {
    return null;
  }
}

/** This machine's lookup. */
export function systemLookup(env: Record<string, string | undefined> = process.env): ElectronLookup {
  return {
    electronDir: packageDir('electron'),
    env,
    exists: existsSync,
    readText: (path) => {
      try {
        return readFileSync(path, 'utf8');
      } catch {
        return null;
      }
    },
  };
}

function main(): void {
  const binary = findElectronBinary(systemLookup());
  const viteDir = packageDir('electron-vite');
  if (!binary || !viteDir) {
    process.stderr.write(`${NO_ELECTRON_MESSAGE}\n`);
    process.exit(1);
  }
  const child = spawn(process.execPath, [join(viteDir, 'bin', 'electron-vite.js'), 'dev', ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, ELECTRON_EXEC_PATH: binary },
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
