import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { blendBytes, tempDir } from '../helpers/scene-files';
import { runCli } from '../helpers/cli';
import { startTestNode } from '../helpers/node';
import { requireSmallDisk, smallDisksPerTest } from '../helpers/small-disk';
import { cliSetup } from './helpers/cli-setup';

const canMount = requireSmallDisk();
const scratch = smallDisksPerTest();

describe.skipIf(!canMount)('renderdrop submit to a node whose disk is full', () => {
  it("says the server's disk is full, keeps the submission to resume, and does not ask to submit again", async () => {
    const disk = scratch.mount(16);
    const t = scratch.keep(await startTestNode({ blender: null, dataDir: join(disk.dir, 'data'), reserveBytes: 256 * 1024 }));
    const file = join(await tempDir(), 'full.blend');
    await writeFile(file, blendBytes(512 * 1024));
    await disk.fill(64 * 1024);
    const cli = await cliSetup(t.url, t.key);
    const result = await runCli(['submit', file, '--yes'], { env: cli.env, timeoutMs: 60_000 });
    const output = result.stdout + result.stderr;
    expect(result.code).not.toBe(0);
    expect(output).toMatch(/server ran out of disk space/);
    expect(output).not.toMatch(/submit (the file )?again/i);
    expect(output).toContain('renderdrop resume');
    const [record] = await cli.journal();
    expect(record).toMatchObject({ ending: null, jobId: null });
  });
});
