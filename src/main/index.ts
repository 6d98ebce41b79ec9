import { app, dialog, protocol } from 'electron';
import { startDesktopShell, type DesktopShell } from './desktop-shell';
import { FileHandOver } from './launch/file-hand-over';
import { claimSingleInstance } from './launch/single-instance';
import { registerAppScheme } from './window/app-protocol';

/** The Windows application id (notifications are grouped under it); electron-builder's `appId`. */
const APP_USER_MODEL_ID = 'com.renderdrop.desktop';

app.enableSandbox();
registerAppScheme(protocol);

const opened = new FileHandOver();
let shell: DesktopShell | null = null;

const primary = claimSingleInstance(app, {
  argv: process.argv,
  cwd: process.cwd(),
  onFiles: (paths) => opened.add(paths),
  onSecondLaunch: () => shell?.showWindow(),
});

if (primary) {
  if (process.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);
  app
    .whenReady()
    .then(() => startDesktopShell({ opened }))
    .then((started) => {
      shell = started;
    })
    .catch((error: unknown) => {
      dialog.showErrorBox('Renderdrop could not start', error instanceof Error ? error.message : String(error));
      app.exit(1);
    });
}
