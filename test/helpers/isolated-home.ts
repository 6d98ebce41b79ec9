import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { homeChanges, snapshotHome } from './home-snapshot';

/** The variables that point programs at a user's folders and session, set for the whole test run. */
export const HOME_VARIABLES = [
  'HOME',
  'USERPROFILE',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_CACHE_HOME',
  'XDG_STATE_HOME',
  'XDG_RUNTIME_DIR',
  'DBUS_SESSION_BUS_ADDRESS',
  'RENDERDROP_TEST_REAL_HOME',
] as const;

/** The environment of a test run whose home is `home`: its own config, data, cache and runtime folders, and no session bus. */
export function homeEnvironment(home: string, realHome: string): Record<(typeof HOME_VARIABLES)[number], string> {
  return {
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_RUNTIME_DIR: join(home, '.run'),
    // A bus that is not there: a test never reaches the user's keychain; tests of the keychain start their own.
    DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(home, '.run', 'no-session-bus')}`,
    RENDERDROP_TEST_REAL_HOME: realHome,
  };
}

/**
 * Vitest's global set-up: every test (and every Blender, CLI, keyring and browser it starts) runs with a
 * home folder made for the run, so Blender's preferences and add-ons, Renderdrop's settings and the
 * keyrings of the person running the tests are never read or written. The watched folders of the real
 * home are compared before and after the run: a change fails the run, naming the paths.
 */
export default function setup(): () => void {
  const realHome = homedir();
  const before = snapshotHome(realHome);
  const home = mkdtempSync(join(tmpdir(), 'renderdrop-test-home-'));
  const saved = new Map(HOME_VARIABLES.map((name) => [name, process.env[name]]));
  const environment = homeEnvironment(home, realHome);
  for (const folder of [environment.XDG_CONFIG_HOME, environment.XDG_DATA_HOME, environment.XDG_CACHE_HOME, environment.XDG_STATE_HOME]) mkdirSync(folder, { recursive: true });
  mkdirSync(environment.XDG_RUNTIME_DIR, { mode: 0o700 });
  Object.assign(process.env, environment);

  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(home, { recursive: true, force: true, maxRetries: 3 });
    const changes = homeChanges(before, snapshotHome(realHome));
    if (changes.length > 0) {
      throw new Error(`The tests changed the real home folder ${realHome}: ${changes.slice(0, 20).join(', ')}${changes.length > 20 ? ` and ${changes.length - 20} more` : ''}.`);
    }
  };
}
