import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/scene-files';

const ROOT = resolve(import.meta.dirname, '..', '..');
/** Packages a command loads only when it runs: never at start, where every `renderdrop` call would pay for them. */
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
  });

  it('loads the schemas, the HTTP client and the keychain only once a command runs', async () => {
    const entry = await readFile(join(out, 'renderdrop.js'), 'utf8');
    const lazy = [...entry.matchAll(/import\("(\.\/chunks\/[^"]+)"\)/g)].map((m) => join(out, m[1]!));
    const loaded = new Set<string>();
    for (const chunk of lazy) for (const p of (await staticImports(chunk)).packages) loaded.add(p);
    expect(loaded.has('zod')).toBe(true);
    expect(loaded.has('@napi-rs/keyring')).toBe(true);
  });
});
