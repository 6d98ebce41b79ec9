import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blenderScript, blenderScriptsDir } from '../../../src/render-node/blender/scripts-dir';

describe('blenderScriptsDir', () => {
  it('finds resources/blender from the sources', () => {
    expect(existsSync(join(blenderScriptsDir(), 'render.py'))).toBe(true);
    expect(existsSync(blenderScript('analyze.py'))).toBe(true);
  });

  it('walks up from a bundled file to the package root', () => {
    const dirs = new Set(['/app/resources/blender']);
    expect(blenderScriptsDir('file:///app/out/cli/index.js', (p) => dirs.has(p))).toBe('/app/resources/blender');
    expect(blenderScriptsDir('/app/src/render-node/blender/x.ts', (p) => dirs.has(p))).toBe('/app/resources/blender');
  });

  it('says so when there is no resources/blender above', () => {
    expect(() => blenderScriptsDir('file:///nowhere/out/index.js', () => false)).toThrow(/resources\/blender/);
  });
});
