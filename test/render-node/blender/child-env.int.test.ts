import { describe, expect, it } from 'vitest';
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBlender } from '../../../src/render-node/blender/run-blender';
import { startRender } from '../../../src/render-node/blender/render';

const SECRETS = { RENDERDROP_API_KEY: 'RJ-must-not-leak', RENDERDROP_WEBHOOK_SECRET: 'whsec-must-not-leak', AWS_SECRET_ACCESS_KEY: 'aws-must-not-leak', GITHUB_TOKEN: 'ghp-must-not-leak' };

/** A stand-in for Blender that writes its environment to a file. */
async function fakeBlender(): Promise<{ path: string; seen: () => Promise<string> }> {
  const dir = await mkdtemp(join(tmpdir(), 'rd-fake-blender-'));
  const path = join(dir, 'blender');
  const out = join(dir, 'env.txt');
  await writeFile(path, `#!/bin/sh\nenv > '${out}'\n`);
  await chmod(path, 0o755);
  return { path, seen: () => readFile(out, 'utf8') };
}

describe.skipIf(process.platform === 'win32')('secrets never reach a started Blender', () => {
  it('runBlender drops the API key and webhook secret from the environment', async () => {
    const fake = await fakeBlender();
    await runBlender({ blenderPath: fake.path, args: [], env: { ...process.env, ...SECRETS, LANG: 'C.UTF-8', OCIO: '/aces/config.ocio' } });
    const env = await fake.seen();
    expect(env).toContain('LANG=C.UTF-8');
    expect(env).toContain('OCIO=/aces/config.ocio');
    expect(env).not.toContain('must-not-leak');
  });

  it('startRender does too', async () => {
    const fake = await fakeBlender();
    const dir = await mkdtemp(join(tmpdir(), 'rd-fake-out-'));
    const handle = startRender({ blenderPath: fake.path, scenePath: join(dir, 'x.blend'), sceneRoot: dir, plan: { frames: [1], outputDir: dir }, env: { ...process.env, ...SECRETS } });
    await handle.done;
    expect(await fake.seen()).not.toContain('must-not-leak');
  });
});
