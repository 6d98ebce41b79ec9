import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/scene-files';

const ROOT = resolve(import.meta.dirname, '..', '..');
/** Packages a command loads only when it runs: never at start, where every `renderdrop` call would pay for them. */
/** A line of zod's own source, found in whichever chunk it is bundled into. */
const ZOD_MARK = '// node_modules/zod/';
const HEAVY = ['zod', 'got', 'conf', 'ioredis', 'bullmq', 'fastify', 'undici', '@napi-rs/keyring', 'better-sqlite3', 'yazl'];

/** Every file and package the module at `entry` imports statically, followed through the build's own chunks. */
async function staticImports(entry: string): Promise<{ files: string[]; packages: Set<string> }> {
  const files: string[] = [];
  const packages = new Set<string>();
  const walk = async (file: string): Promise<void> => {
    if (files.includes(file)) return;
    files.push(file);
    const source = await readFile(file, 'utf8');
    for (const match of source.matchAll(/(?:^|\n)import\s*(?:[^'"]*?from\s*)?"([^"]+)"/g)) {
      const target = match[1]!;
      if (target.startsWith('.')) await walk(join(dirname(file), target));
      else packages.add(target);
    }
  };
  await walk(entry);
  return { files, packages };
}

describe('what renderdrop loads before it reads its arguments', () => {
  let out: string;
  beforeAll(async () => {
    out = await tempDir('rd-cli-build-');
    await promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), `--outdir=${out}`], { cwd: ROOT, timeout: 120_000 });
  }, 150_000);
  afterAll(() => rm(out, { recursive: true, force: true }));

  it('loads commander and Node itself, none of the heavy packages the commands use', async () => {
    const { files, packages } = await staticImports(join(out, 'renderdrop.js'));
    expect(files.length).toBeGreaterThan(1);
    expect(packages.has('commander')).toBe(true);
    expect([...packages].filter((p) => HEAVY.includes(p))).toEqual([]);
    for (const file of files) expect(await readFile(file, 'utf8'), `zod bundled into ${file}`).not.toContain(ZOD_MARK);
  });

  it('loads the schemas, the HTTP client and the keychain only once a command runs', async () => {
    const entry = await readFile(join(out, 'renderdrop.js'), 'utf8');
    const lazy = [...entry.matchAll(/import\("(\.\/chunks\/[^"]+)"\)/g)].map((m) => join(out, m[1]!));
    const loaded = new Set<string>();
    let zodBundled = false;
    for (const chunk of lazy) {
      const { files, packages } = await staticImports(chunk);
      for (const p of packages) loaded.add(p);
      for (const file of files) zodBundled ||= (await readFile(file, 'utf8')).includes(ZOD_MARK);
    }
    expect(zodBundled, 'zod is bundled into a chunk a command loads').toBe(true);
    expect(loaded.has('zod'), 'zod is bundled, not loaded file by file from node_modules').toBe(false);
    let keychainOnUse = false;
    for (const chunk of lazy) for (const file of (await staticImports(chunk)).files) keychainOnUse ||= (await readFile(file, 'utf8')).includes('import("@napi-rs/keyring")');
    expect(keychainOnUse || loaded.has('@napi-rs/keyring'), 'the keychain is loaded by a command, not at start').toBe(true);
  });
});
