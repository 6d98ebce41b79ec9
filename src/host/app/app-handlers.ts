import type { SettingsStore } from '../../core/settings';
import type { Clock } from '../../core/util';
import { runDoctor, type DoctorReport } from '../../render-node/blender';
import type { NamespaceHandlers } from '../namespace-handlers';
import type { LocalNode } from '../profiles';
import type { AppPreferences } from '../environment';
import type { AppViews } from './app-views';
import { toDoctorView } from './doctor-view';
import { applyThisComputer } from './this-computer-settings';

/** What the app, settings and scenes calls need. */
export interface AppHandlerDeps {
  views: AppViews;
  store: SettingsStore;
  prefs: AppPreferences;
  node: LocalNode | null;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  /** Checks this computer's setup (default: the real doctor). */
  doctor?: () => Promise<DoctorReport>;
}

/** The `app.*`, `settings.*` and `scenes.*` calls: app state, the doctor, settings, a scene's last settings. */
export function appHandlers(deps: AppHandlerDeps): NamespaceHandlers<'app' | 'settings' | 'scenes'> {
  const { views, store, prefs, node } = deps;
  return {
    'app.getState': () => views.state(),
    'app.renderWorkers': async () => (node ? node.workers() : null),
    'app.runDoctor': async () => {
      const report = await (deps.doctor ?? (() => runDoctor({ env: deps.env, platform: process.platform })))();
      return toDoctorView(report, new Date(deps.clock.now()));
    },

    'settings.get': async () => views.settings(),
    'settings.update': async ({ downloadDir, autoDownload, notifications, theme, thisComputer }) => {
      if (thisComputer !== undefined) await applyThisComputer(prefs, node, thisComputer);
      store.set({
        ...(downloadDir !== undefined ? { downloadDir } : {}),
        ...(autoDownload !== undefined ? { autoDownload } : {}),
        ...(notifications !== undefined ? { notifications } : {}),
      });
      if (theme !== undefined) await prefs.setTheme(theme);
      await views.announce();
      return views.settings();
    },

    'scenes.lastSettings': async ({ fileName }) => prefs.lastSettings(fileName),
  };
}
