import type { App } from 'electron';
import { isScenePath, scenePathsFromArgv, scenePathsFromHandOver } from './scene-args';

/** The part of Electron's `app` the single-instance lock needs. */
export type InstanceApp = Pick<App, 'requestSingleInstanceLock' | 'on' | 'quit'>;

/** What to do with launches and opened files. */
export interface SingleInstanceOptions {
  argv: readonly string[];
  cwd: string;
  /** Scene files to submit (this launch's, a second launch's, or macOS open-file). */
  onFiles(paths: string[]): void;
  /** Another launch happened: bring the window forward. */
  onSecondLaunch(): void;
}

/**
 * Claims the single-instance lock. When another instance holds it, this one hands its scene files
 * over (as the lock's `additionalData`), quits and answers false. Otherwise it listens for later
 * launches and macOS open-file events (register before `ready`: macOS sends the files a launch was
 * opened with that early) and passes this launch's own files on.
 */
export function claimSingleInstance(app: InstanceApp, options: SingleInstanceOptions): boolean {
  const files = scenePathsFromArgv(options.argv, options.cwd);
  if (!app.requestSingleInstanceLock({ files })) {
    app.quit();
    return false;
  }
  app.on('second-instance', (_event, argv, workingDirectory, additionalData) => {
    options.onSecondLaunch();
    const handed = scenePathsFromHandOver(additionalData) ?? scenePathsFromArgv(argv, workingDirectory);
    if (handed.length > 0) options.onFiles(handed);
  });
  app.on('open-file', (event, path) => {
    event.preventDefault();
    if (isScenePath(path)) options.onFiles([path]);
  });
  if (files.length > 0) options.onFiles(files);
  return true;
}
