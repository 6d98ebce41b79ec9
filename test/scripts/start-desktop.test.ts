import { describe, expect, it } from 'vitest';
import { findElectronBinary, NO_ELECTRON_MESSAGE, packageDir, type ElectronLookup } from '../../scripts/start-desktop';

function lookup(files: Record<string, string>, env: Record<string, string | undefined> = {}, electronDir: string | null = '/nm/electron'): ElectronLookup {
  return { electronDir, env, exists: (p) => p in files, readText: (p) => files[p] ?? null };
}

describe('npm start: is the Electron binary here?', () => {
  it('finds the binary the download recorded in path.txt, inside dist/', () => {
    expect(findElectronBinary(lookup({ '/nm/electron/path.txt': 'electron\n', '/nm/electron/dist/electron': '' }))).toBe('/nm/electron/dist/electron');
    expect(findElectronBinary(lookup({ '/nm/electron/path.txt': 'Electron.app/Contents/MacOS/Electron', '/nm/electron/dist/Electron.app/Contents/MacOS/Electron': '' }))).toBe(
      '/nm/electron/dist/Electron.app/Contents/MacOS/Electron',
    );
  });

  it('finds nothing when the package was installed without its binary (no path.txt, or dist/ missing)', () => {
    expect(findElectronBinary(lookup({}))).toBeNull();
    expect(findElectronBinary(lookup({ '/nm/electron/path.txt': 'electron' }))).toBeNull();
    expect(findElectronBinary(lookup({ '/nm/electron/path.txt': '  ' }))).toBeNull();
    expect(findElectronBinary(lookup({}, {}, null))).toBeNull();
  });

  it('honours ELECTRON_EXEC_PATH and ELECTRON_OVERRIDE_DIST_PATH', () => {
    expect(findElectronBinary(lookup({ '/opt/electron/electron': '' }, { ELECTRON_EXEC_PATH: '/opt/electron/electron' }))).toBe('/opt/electron/electron');
    expect(findElectronBinary(lookup({}, { ELECTRON_EXEC_PATH: '/opt/missing' }))).toBeNull();
    expect(findElectronBinary(lookup({ '/nm/electron/path.txt': 'electron', '/custom/electron': '' }, { ELECTRON_OVERRIDE_DIST_PATH: '/custom' }))).toBe('/custom/electron');
  });

  it('says so in one line that points to browser mode', () => {
    expect(NO_ELECTRON_MESSAGE).not.toContain('\n');
    expect(NO_ELECTRON_MESSAGE).toContain('npm run web');
  });

  it('locates installed packages without loading them', () => {
    expect(packageDir('electron')).toMatch(/node_modules[\\/]electron$/);
    expect(packageDir('surely-not-installed-package-xyz')).toBeNull();
  });
});
