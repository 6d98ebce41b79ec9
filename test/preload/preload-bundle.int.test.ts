import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ENTRY = fileURLToPath(new URL('../../src/preload/index.ts', import.meta.url));

describe('the preload bundle (esbuild)', () => {
  it('bundles into one script that requires nothing but electron (a sandboxed preload can load nothing else)', async () => {
    const result = await build({ entryPoints: [ENTRY], bundle: true, format: 'cjs', platform: 'node', write: false, metafile: true, external: ['electron'], logLevel: 'silent' });
    const imports = Object.values(result.metafile.outputs).flatMap((o) => o.imports.map((i) => i.path));
    expect([...new Set(imports)]).toEqual(['electron']);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((i) => i.includes('node_modules'))).toBe(false);
  });
});
