import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireBlenderSeries } from '../helpers/blenders';
import { ROOT } from '../helpers/cli';

/** A Python that has pytest and flake8 (Debian's python3-pytest and python3-flake8), or null. */
function pythonWithTools(): string | null {
  for (const python of ['python3', '/usr/bin/python3']) {
    if (spawnSync(python, ['-c', 'import pytest, flake8'], { stdio: 'ignore' }).status === 0) return python;
  }
  return null;
}

const python = pythonWithTools();
if (!python && process.env.CI) throw new Error('The add-on\'s Python checks need pytest and flake8 (apt: python3-pytest python3-flake8); CI must not skip them.');

describe.skipIf(!python)('the Blender add-on\'s Python: unit tests (pytest, stand-in bpy) and lint (flake8 with addon/.flake8, the rules of addon/ruff.toml)', () => {
  it('passes its unit tests', () => {
    const ran = spawnSync(python!, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', join('test', 'addon', 'python')], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
    expect(ran.status, ran.stdout + ran.stderr).toBe(0);
  });

  it('passes lint', () => {
    const ran = spawnSync(python!, ['-m', 'flake8', '--config', '.flake8', 'renderdrop_blender', join('..', 'test', 'addon', 'python'), join('..', 'test', 'fixtures', 'blender', 'drive-addon-session.py')], { cwd: join(ROOT, 'addon'), encoding: 'utf8' });
    expect(ran.status, ran.stdout + ran.stderr).toBe(0);
  });
});

const blender43 = requireBlenderSeries('4.3');

describe.skipIf(!blender43)('the add-on as a Blender 4.2+ extension (Blender 4.3)', () => {
  it('is accepted by `blender --command extension build`', async () => {
    const out = await mkdtemp(join(tmpdir(), 'rd-extension-'));
    try {
      const ran = spawnSync(blender43!, ['--command', 'extension', 'build', '--source-dir', join(ROOT, 'addon', 'renderdrop_blender'), '--output-dir', out], { encoding: 'utf8', timeout: 120_000 });
      expect(ran.status, ran.stdout + ran.stderr).toBe(0);
      expect(await readdir(out)).toEqual([expect.stringMatching(/^renderdrop-\d+\.\d+\.\d+\.zip$/)]);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
